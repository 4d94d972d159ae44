package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/model/chat"
)

// TestTextAfterAToolIsDrawnBelowItsCard: in tool-then-text the call comes first and the text
// after it; the screen shows them in that order while the reply streams and once it ended.
func TestTextAfterAToolIsDrawnBelowItsCard(t *testing.T) {
	h := newHarness(t, "tool-then-text", 80, 24)
	h.submit("what is here?")
	for hasPending[chat.StreamMsg](h) {
		h.feedStream()
		if strings.Contains(h.m.View().Content, "keep writing") {
			break
		}
	}
	screen := h.m.View().Content
	card, text := strings.Index(screen, "list_dir"), strings.Index(screen, "I asked for the directory listing.")
	if card < 0 || text < 0 || card > text {
		t.Fatalf("the card (at %d) is not above the text that followed it (at %d):\n%s", card, text, screen)
	}
	golden.RequireEqual(t, []byte(screen))
}
