package tui

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// inertMessages is one message of every kind the model does not act on.
var inertMessages = []tea.Msg{
	tea.KeyReleaseMsg{Code: 'a', Text: "a"},
	tea.MouseMotionMsg{X: 3, Y: 4},
	tea.MouseClickMsg{X: 3, Y: 4, Button: tea.MouseLeft},
	tea.MouseReleaseMsg{X: 3, Y: 4, Button: tea.MouseLeft},
	tea.FocusMsg{},
	tea.BlurMsg{},
	tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput},
	tea.KeyboardEnhancementsMsg{},
	tea.CursorPositionMsg{X: 1, Y: 1},
	tea.TerminalVersionMsg{Name: "xterm"},
	tea.ColorProfileMsg{},
	tea.CapabilityMsg{Content: "RGB"},
	tea.ForegroundColorMsg{Color: color.White},
	tea.CursorColorMsg{Color: color.White},
	tea.EnvMsg{},
}

// A message the model does not act on leaves the screen as it was drawn: the View is the last
// one, not drawn again (no allocation), and the handler the message would reach if it were not
// inert would not change it either, in any phase.
func TestInertMessagesKeepTheLastScreen(t *testing.T) {
	h := newHarness(t, "tool-then-text", 80, 24)
	phases := []func(){
		func() { h.typeText("a draft") },                            // idle, a draft typed
		func() { h.send(keyEnter); h.feedStream(); h.feedStream() }, // streaming
		func() { h.feedAll() },                                      // complete
	}
	for i, enter := range phases {
		enter()
		before := h.m.View().Content
		for _, msg := range inertMessages {
			if _, cmd := h.m.Update(msg); cmd != nil {
				t.Fatalf("phase %d: %T gave a command", i, msg)
			}
			if allocs := testing.AllocsPerRun(3, func() { _ = h.m.View() }); allocs != 0 {
				t.Fatalf("phase %d: after %T the View was drawn again (%v allocations)", i, msg, allocs)
			}
			h.m.update(msg)
			if got := h.m.draw().Content; got != before {
				t.Fatalf("phase %d: %T would change the screen, so it is not inert:\n%s\n---\n%s", i, msg, before, got)
			}
		}
	}
}

// Every message the model acts on draws the screen anew.
func TestActedOnMessagesRedraw(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	before := h.m.View().Content
	h.m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if after := h.m.View().Content; after == before {
		t.Fatalf("a key typed into the composer left the screen as it was:\n%s", after)
	}
	before = h.m.View().Content
	h.m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	if after := h.m.View().Content; after == before {
		t.Fatalf("a resize left the screen as it was:\n%s", after)
	}
}
