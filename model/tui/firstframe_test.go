package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/view"
)

// Until the terminal's size comes, the full screen draws nothing but the switch to it: a
// frame laid out for the guessed 80x24 (a composer six rows high, a rule 80 cells wide in a
// wider terminal) would reach the terminal whenever Bubble Tea flushes before the size
// arrives, and be replaced a frame later. The size draws the welcome.
func TestNothingIsDrawnBeforeTheSize(t *testing.T) {
	m := New(Options{Chat: chat.New(chat.Config{Model: "text"}, nil), Styles: view.PlainStyles(),
		Footer: view.Footer{Endpoint: "http://fixtures.test/v1", Model: "text"},
		Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	if v := m.View(); v.Content != "" || !v.AltScreen {
		t.Fatalf("before the size the view is %q (alternate screen %v), want nothing on the alternate screen", v.Content, v.AltScreen)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	v := m.View()
	if !strings.Contains(v.Content, "phasechat — a terminal chat") || !strings.Contains(v.Content, strings.Repeat("─", 120)) {
		t.Fatalf("once sized to 120x40 the view is not the welcome across 120 columns:\n%s", v.Content)
	}
}
