package view

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestGolden draws every phase at 80 and 120 columns in plain style (so the golden files hold
// no escape bytes) and checks where the cursor sits: on Stop while streaming, on Retry in the
// error phase, else in the composer at the textarea's cursor. Update with -update.
func TestGolden(t *testing.T) {
	for _, sc := range scenes {
		for _, width := range []int{80, 120} {
			t.Run(fmt.Sprintf("%s/%d", sc.name, width), func(t *testing.T) {
				f := sc.frame()
				f.Width = width
				scr := NewRenderer(PlainStyles()).Render(f)
				golden.RequireEqual(t, []byte(scr.Content))
				checkShape(t, scr.Content, f.Width, f.Height)
				checkCursor(t, scr, f, sc.cursor)
			})
		}
	}
}

// checkShape asserts Content has exactly height rows, none wider than width.
func checkShape(t *testing.T, content string, width, height int) {
	t.Helper()
	rows := strings.Split(content, "\n")
	if height == 0 {
		if content != "" {
			t.Fatalf("height 0 but content %q", content)
		}
		return
	}
	if len(rows) != height {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), height, content)
	}
	for i, row := range rows {
		if w := ansi.StringWidth(row); w > width {
			t.Fatalf("row %d is %d cells wide, more than %d: %q", i, w, width, row)
		}
	}
}

func checkCursor(t *testing.T, scr Screen, f Frame, on string) {
	t.Helper()
	if !scr.Cursor {
		t.Fatalf("no cursor; want it on %s", on)
	}
	rows := strings.Split(scr.Content, "\n")
	row := ansi.Strip(rows[scr.CursorY])
	switch on {
	case "stop", "retry":
		label := map[string]string{"stop": "Stop", "retry": "Retry"}[on]
		if got := ansi.Cut(row, scr.CursorX, scr.CursorX+len(label)); got != label {
			t.Fatalf("cursor (%d,%d) is on %q, want %q; row %q", scr.CursorX, scr.CursorY, got, label, row)
		}
	case "composer":
		if scr.CursorX != f.ComposerCursorX || !strings.HasPrefix(rows[scr.CursorY-1], "Message") {
			t.Fatalf("cursor (%d,%d) is not at the composer's (%d,0); rows around: %q / %q",
				scr.CursorX, scr.CursorY, f.ComposerCursorX, rows[scr.CursorY-1], row)
		}
	}
}

// TestControlRowIsStable checks the control row and the composer stay on the same rows when
// Stop appears and disappears (idle → streaming → complete): no layout jump.
func TestControlRowIsStable(t *testing.T) {
	for _, width := range []int{30, 80, 120} {
		var rows []int
		var composer []string
		for _, name := range []string{"idle", "streaming-text", "streaming-tool", "complete"} {
			f := sceneByName(name).frame()
			f.Width = width
			f.Composer = "┃ marker"
			scr := NewRenderer(PlainStyles()).Render(f)
			lines := strings.Split(scr.Content, "\n")
			for i, l := range lines {
				if strings.HasPrefix(l, "Message") {
					rows = append(rows, i)
					composer = append(composer, lines[i+1])
				}
			}
		}
		for i := range rows {
			if rows[i] != rows[0] || composer[i] != "┃ marker" {
				t.Fatalf("width %d: label rows %v, composer rows %q: the layout moved", width, rows, composer)
			}
		}
	}
}

func sceneByName(name string) scene {
	for _, s := range scenes {
		if s.name == name {
			return s
		}
	}
	panic("no scene " + name)
}
