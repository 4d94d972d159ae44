package tui

import (
	"fmt"
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

// A round trip of widths brings the reader back to the very row they were reading, even in an
// entry whose lines rewrap at the narrower width.
func TestResizeRoundTripKeepsTheExactRow(t *testing.T) {
	var text strings.Builder
	for i := range 300 {
		fmt.Fprintf(&text, "Paragraph %03d: these words fill a line that fits in a hundred columns but wraps at seventy.\n\n", i)
	}
	h := newHarness(t, "text", 100, 24)
	h.server.h = replyHandler(text.String(), 40)
	h.submit("write")
	h.feedAll()
	for range 7 {
		h.send(keyPgUp)
	}
	top := firstRow(h)
	if !strings.Contains(top, "Paragraph") {
		t.Fatalf("scrolled up, the top row is %q:\n%s", top, h.transcriptRows())
	}
	for _, width := range []int{70, 100, 70, 100} {
		h.send(tea.WindowSizeMsg{Width: width, Height: 24})
	}
	if got := firstRow(h); got != top {
		t.Fatalf("after 100→70→100→70→100 columns the top row is %q, was %q:\n%s", got, top, h.transcriptRows())
	}
}
