package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

var keyCtrlJ = tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}

// typeLines types n lines into the composer, Ctrl+J between them.
func (h *harness) typeLines(n int) {
	for i := 1; i <= n; i++ {
		if i > 1 {
			h.send(keyCtrlJ)
		}
		h.typeText(fmt.Sprintf("line %d of the message", i))
	}
}

// composerRows are the screen's rows between the composer's label and the help line.
func (h *harness) composerRows() []string {
	rows := strings.Split(h.m.View().Content, "\n")
	for i, r := range rows {
		if strings.HasPrefix(r, "Message") {
			return rows[i+1 : len(rows)-2]
		}
	}
	h.t.Fatalf("no composer label:\n%s", h.m.View().Content)
	return nil
}

// The composer is one row when empty, grows with its text (the first line of a four-line
// message is shown) up to a third of the screen, then scrolls inside, keeping the cursor's
// line in view; the transcript gives way. Goldens at 1, 4 and 12 lines, 80x24.
func TestComposerGrowsWithItsText(t *testing.T) {
	for _, n := range []int{1, 4, 12} {
		t.Run(fmt.Sprintf("lines=%d", n), func(t *testing.T) {
			h := newHarness(t, "text", 80, 24)
			h.typeLines(n)
			rows := h.composerRows()
			if want := min(n, 24/3); len(rows) != want {
				t.Fatalf("%d lines take %d rows, want %d:\n%s", n, len(rows), want, strings.Join(rows, "\n"))
			}
			if n <= 24/3 && !strings.Contains(rows[0], "line 1 of") {
				t.Fatalf("the first line is hidden:\n%s", strings.Join(rows, "\n"))
			}
			if last := rows[len(rows)-1]; !strings.Contains(last, fmt.Sprintf("line %d of", n)) {
				t.Fatalf("the cursor's line is not in view:\n%s", strings.Join(rows, "\n"))
			}
			golden.RequireEqual(t, []byte(h.m.View().Content))
		})
	}
}

// Sending the message brings the composer back to one row; a shorter screen bounds it lower.
func TestComposerShrinksAfterSendAndFollowsTheScreen(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.typeLines(5)
	h.send(keyEnter)
	if rows := h.composerRows(); len(rows) != 1 {
		t.Fatalf("after sending, the composer takes %d rows", len(rows))
	}
	h.feedAll()
	h.typeLines(5)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 12})
	if rows := h.composerRows(); len(rows) != 4 {
		t.Fatalf("at 12 rows the composer takes %d rows, want 4", len(rows))
	}
	if got := len(strings.Split(h.m.View().Content, "\n")); got != 12 {
		t.Fatalf("the screen has %d rows", got)
	}
}

// The first screen shows until the conversation starts and is never sent: the request holds
// the prompt alone.
func TestFirstScreenGoesWhenTheConversationStarts(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	if !strings.Contains(h.transcriptRows(), "phasechat — a terminal chat") || !strings.Contains(h.transcriptRows(), "Endpoint  fixtures.test") {
		t.Fatalf("no first screen:\n%s", h.m.View().Content)
	}
	h.submit("hello")
	if strings.Contains(h.m.View().Content, "phasechat — a terminal chat") {
		t.Fatalf("the first screen stayed:\n%s", h.m.View().Content)
	}
	h.feedAll()
	sent := h.server.requests()[0].Messages
	if len(sent) != 1 || sent[0].Text() != "hello" {
		t.Fatalf("sent %+v", sent)
	}
}
