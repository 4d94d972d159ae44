package view

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The indicator and the key overlay fit any width: no row wider than the screen, the overlay
// exactly its height, and the indicator's count never cut while there is room for it.
func TestIndicatorAndKeysFitEveryWidth(t *testing.T) {
	keys := []Key{{Keys: "pgup/pgdn", Does: "scroll the transcript a page; at the end, follow the reply"}, {Keys: "ctrl+c", Does: "quit"}, {Keys: "f1", Does: "this list"}}
	for _, st := range []Styles{PlainStyles(), DefaultStyles()} {
		th := newTheme(st)
		for width := 1; width <= 90; width++ {
			rule := scrolledRule(th, 1234, "End", width)
			if w := ansi.StringWidth(rule); w > width {
				t.Fatalf("width %d: the indicator is %d wide: %q", width, w, rule)
			}
			if width >= 40 && !strings.Contains(ansi.Strip(rule), "↓ 1,234 more lines · End follows") {
				t.Fatalf("width %d: %q", width, ansi.Strip(rule))
			}
			for height := 0; height <= 6; height++ {
				rows := renderKeys(th, keys, width, height)
				if len(rows) != height {
					t.Fatalf("%dx%d: %d rows", width, height, len(rows))
				}
				for _, r := range rows {
					if w := ansi.StringWidth(r); w > width {
						t.Fatalf("%dx%d: a row %d wide: %q", width, height, w, r)
					}
				}
			}
		}
	}
	if got := ansi.Strip(scrolledRule(newTheme(PlainStyles()), 1, "End", 40)); got != "─── ↓ 1 more line · End follows ────────" {
		t.Fatalf("one line: %q", got)
	}
}
