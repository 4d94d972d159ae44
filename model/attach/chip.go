package attach

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
)

// Chip is the attachment as one line in the transcript: kind, file name, and what says how
// big it is — "[image red.png · 8×8 · 1 KB]", "[file notes.txt · 37 lines]",
// "[pdf report.pdf · 120 KB]". The name is not sanitised here: whoever draws it does.
func (f File) Chip() string {
	parts := []string{f.Kind.String() + " " + filepath.Base(f.Name)}
	switch f.Kind {
	case Image:
		parts = append(parts, fmt.Sprintf("%d×%d", f.Width, f.Height), Size(int64(len(f.Data))))
	case Text:
		parts = append(parts, strconv.Itoa(f.Lines)+" "+format.Plural(f.Lines, "line", "lines"))
	default:
		parts = append(parts, Size(int64(len(f.Data))))
	}
	return "[" + strings.Join(parts, " · ") + "]"
}

// Size is n bytes for people: "512 B", "1 KB", "4.2 MB" (powers of 1024, one decimal under 10).
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, u := float64(n)/unit, "KB"
	for _, next := range []string{"MB", "GB"} {
		if v < unit {
			break
		}
		v, u = v/unit, next
	}
	if v < 10 && v != float64(int64(v)) {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + u
	}
	return strconv.FormatInt(int64(v+0.5), 10) + " " + u
}

// quote is name as an error message shows it: quoted when it holds a space or is empty.
func quote(name string) string {
	if name == "" || strings.ContainsAny(name, " \t\"") {
		return strconv.Quote(name)
	}
	return name
}
