package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Scrolled up in a long transcript, a resize keeps the row being read at the top of the
// transcript. The place was a row count from the tail, so at 70 columns, where every entry
// above and below rewraps, it showed a line far from the one being read.
func TestResizeKeepsTheReadersPlace(t *testing.T) {
	h := newHarness(t, "long", 100, 24)
	h.submit("count")
	for range 600 {
		h.feedStream()
	}
	for range 6 {
		h.send(keyPgUp)
	}
	top := firstRow(h)
	if !strings.Contains(top, "Line") {
		t.Fatalf("scrolled up, the top row is %q:\n%s", top, h.transcriptRows())
	}
	for _, size := range [][2]int{{70, 24}, {100, 30}, {130, 12}} {
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		if got := firstRow(h); got != top {
			t.Fatalf("after a resize to %dx%d the top row is %q, was %q:\n%s", size[0], size[1], got, top, h.transcriptRows())
		}
	}
}

func firstRow(h *harness) string {
	return strings.TrimSpace(strings.Split(h.transcriptRows(), "\n")[0])
}
