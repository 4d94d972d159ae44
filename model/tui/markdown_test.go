package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/model/chat"
)

// TestLongReplyKeepsItsLines: the long scenario's 2,000 lines, one line break each, are
// drawn as 2,000 lines, not joined into one paragraph, while streaming and once finished.
func TestLongReplyKeepsItsLines(t *testing.T) {
	h := newHarness(t, "long", 100, 24)
	h.submit("go")
	for n := 0; hasPending[chat.StreamMsg](h); n++ {
		h.feedStream()
		if n == 5000 {
			checkLongLines(t, h.m.View().Content)
		}
	}
	h.feedAll()
	screen := h.m.View().Content
	checkLongLines(t, screen)
	if !strings.Contains(screen, "\n  Line 2000: the quick brown fox jumps over the lazy dog.\n") {
		t.Fatalf("the last line is not drawn on its own:\n%s", screen)
	}
	golden.RequireEqual(t, []byte(screen))
}

// checkLongLines checks that each "Line N:" the screen shows starts its own row, and the row
// below holds the next line.
func checkLongLines(t *testing.T, screen string) {
	t.Helper()
	rows := strings.Split(screen, "\n")
	seen := 0
	for i, row := range rows {
		var n int
		if _, err := fmt.Sscanf(strings.TrimSpace(row), "Line %d:", &n); err != nil {
			continue
		}
		seen++
		if strings.Count(row, "Line ") != 1 {
			t.Fatalf("row %d holds more than one source line: %q", i, row)
		}
		if i+1 < len(rows) && strings.Contains(rows[i+1], "Line ") && !strings.Contains(rows[i+1], fmt.Sprintf("Line %d:", n+1)) {
			t.Fatalf("row %d (%q) is not followed by line %d: %q", i, row, n+1, rows[i+1])
		}
	}
	if seen < 5 {
		t.Fatalf("only %d numbered lines on screen:\n%s", seen, screen)
	}
}
