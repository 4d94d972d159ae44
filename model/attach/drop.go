package attach

import (
	"path/filepath"
	"strings"
)

// DroppedPath reports whether pasted text is what dragging one file into a terminal types:
// a single absolute path, perhaps quoted ('…' or "…") or with its spaces escaped (\ ), and
// perhaps followed by a space or a newline. path is the path itself.
func DroppedPath(text string) (path string, ok bool) {
	t := strings.TrimSpace(text)
	if t == "" || strings.ContainsAny(t, "\n\r") {
		return "", false
	}
	if len(t) >= 2 && (t[0] == '\'' || t[0] == '"') && t[len(t)-1] == t[0] {
		t = t[1 : len(t)-1]
	} else {
		if strings.Contains(strings.ReplaceAll(t, `\ `, ""), " ") {
			return "", false // words, not a path
		}
		t = strings.ReplaceAll(t, `\ `, " ")
	}
	if !filepath.IsAbs(t) || strings.HasSuffix(t, "/") {
		return "", false
	}
	return t, true
}
