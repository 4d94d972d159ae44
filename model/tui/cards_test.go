package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/model/chat"
)

// TestTextAfterAToolIsDrawnBelowItsCard: in tool-then-text the call comes first and the text
// after it; the screen shows them in that order while the reply streams. The seed's call has
// no id, so its start waits for the text frame that ends it, and still goes above that text.
func TestTextAfterAToolIsDrawnBelowItsCard(t *testing.T) {
	for _, tc := range []struct{ scenario, tool, text string }{
		{"tool-then-text", "list_dir", "I asked for the directory listing."},
		{"seed", "lookup", "Found two headings."},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			h := newHarness(t, tc.scenario, 80, 24)
			h.submit("what is here?")
			for hasPending[chat.StreamMsg](h) {
				h.feedStream()
				if strings.Contains(h.m.View().Content, tc.text) {
					break
				}
			}
			screen := h.m.View().Content
			card, text := strings.Index(screen, tc.tool), strings.Index(screen, tc.text)
			if card < 0 || text < 0 || card > text {
				t.Fatalf("the card (at %d) is not above the text that followed it (at %d):\n%s", card, text, screen)
			}
			if tc.scenario == "tool-then-text" {
				for hasPending[chat.StreamMsg](h) && !strings.Contains(h.m.View().Content, "keep writing") {
					h.feedStream()
				}
				golden.RequireEqual(t, []byte(h.m.View().Content))
			}
		})
	}
}

var (
	keyAltUp   = tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}
	keyAltDown = tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModAlt}
	keyCtrlO   = tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
)

// focusedLine is the screen line holding the focus mark, or "".
func focusedLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "▶ ") {
			return l
		}
	}
	return ""
}

// TestEveryCardCanBeSelectedAndExpanded: with parallel-tools' three cards, Alt+Up walks from
// the newest card to the first; Ctrl+O expands the selected one (not the newest), Alt+Down
// past the newest leaves none selected, and typing goes to the composer.
func TestEveryCardCanBeSelectedAndExpanded(t *testing.T) {
	h := newHarness(t, "parallel-tools", 100, 40)
	h.submit("what time is it, what is here, and what does the README say")
	for !hasPending[chat.ToolDoneMsg](h) || hasPending[chat.StreamMsg](h) {
		h.feedStream()
	}
	if got := focusedLine(h.m.View().Content); got != "" {
		t.Fatalf("a card is selected before any key: %q", got)
	}
	for _, want := range []string{"read_file", "list_dir", "now", "now"} {
		h.send(keyAltUp)
		if got := focusedLine(h.m.View().Content); !strings.Contains(got, want) {
			t.Fatalf("after Alt+Up the selected line is %q, want the %s card", got, want)
		}
	}
	h.send(keyCtrlO)
	screen := h.m.View().Content
	if !strings.Contains(screen, "arguments:") || strings.Index(screen, "arguments:") > strings.Index(screen, "list_dir") {
		t.Fatalf("Ctrl+O did not expand the first card:\n%s", screen)
	}
	golden.RequireEqual(t, []byte(screen))
	for range 3 {
		h.send(keyAltDown)
	}
	if got := focusedLine(h.m.View().Content); got != "" {
		t.Fatalf("Alt+Down past the newest card left %q selected", got)
	}
	h.send(keyAltUp)
	h.typeText("x")
	if got := focusedLine(h.m.View().Content); got != "" || h.m.composer.Value() != "x" {
		t.Fatalf("typing left %q selected; composer %q", got, h.m.composer.Value())
	}
}

// TestSelectingACardScrollsItIntoView: the first card of a long transcript is above the
// window; selecting it scrolls up to it.
func TestSelectingACardScrollsItIntoView(t *testing.T) {
	h := newHarness(t, "parallel-tools", 80, 16)
	h.submit("what time is it, what is here, and what does the README say")
	h.feedAll()
	for range 30 {
		h.m.chat.Notice("filler line")
	}
	h.send(tea.WindowSizeMsg{Width: 80, Height: 16})
	if strings.Contains(h.m.View().Content, "now") {
		t.Fatalf("the first card is in view before selecting it:\n%s", h.m.View().Content)
	}
	for range 3 {
		h.send(keyAltUp)
	}
	if !strings.Contains(focusedLine(h.m.View().Content), "· now") {
		t.Fatalf("the selected first card is not in view:\n%s", h.m.View().Content)
	}
	if h.m.linesUp() == 0 {
		t.Fatal("selecting a card above the window did not scroll")
	}
}

// TestALargePasteIsFoldedInTheTranscript: a 300-line paste is sent whole, drawn as one line,
// and Ctrl+O unfolds it.
func TestALargePasteIsFoldedInTheTranscript(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	var paste strings.Builder
	for i := range 300 {
		fmt.Fprintf(&paste, "pasted line %d\n", i+1)
	}
	h.send(tea.PasteMsg{Content: paste.String()})
	h.send(keyEnter)
	h.feedAll()
	screen := h.m.View().Content
	if !strings.Contains(screen, "› [pasted 300 lines · ctrl+o to expand]") || strings.Contains(screen, "pasted line 1\n") {
		t.Fatalf("the paste is not folded:\n%s", screen)
	}
	golden.RequireEqual(t, []byte(screen))
	sent := h.server.requests()
	if len(sent) != 1 || sent[0].Messages[len(sent[0].Messages)-1].Text() != paste.String() {
		t.Fatalf("the request does not carry the whole paste")
	}
	h.send(keyAltUp)
	h.send(keyCtrlO)
	if screen := h.m.View().Content; strings.Contains(screen, "[pasted") || !strings.Contains(screen, "▶ pasted line 1\n") {
		t.Fatalf("Ctrl+O did not unfold the paste:\n%s", screen)
	}
}

// TestARunningCardShowsItsTime: the silence tick, which runs only while a request is in
// flight, tells the engine the time; each running card shows how long its tool has run.
func TestARunningCardShowsItsTime(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := newHarness(t, "parallel-tools", 100, 24, func(c *chat.Config) { c.Clock = func() time.Time { return t0 } })
	h.submit("what time is it, what is here, and what does the README say")
	for !hasPending[chat.ToolDoneMsg](h) || hasPending[chat.StreamMsg](h) {
		h.feedStream()
	}
	h.send(silenceTick{gen: h.m.timers.silenceGen, at: t0.Add(5 * time.Second)})
	if n := strings.Count(h.m.View().Content, "· 5s"); n != 3 {
		t.Fatalf("%d running cards show 5s, want 3:\n%s", n, h.m.View().Content)
	}
}
