package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The card keys (alt+↑/↓, ctrl+o; see keyMap) move a focus over the transcript's tool cards
// and folded prompts and expand or fold the focused one; they are chords no typing produces,
// so the composer keeps every key it had. The focus itself is the transcript's
// (chat.MoveFocus).

// cardKey handles the card keys; ok is false for any other key.
func (m *Model) cardKey(k tea.KeyPressMsg) (*Model, bool) {
	switch {
	case key.Matches(k, keys.SelectUp.Binding):
		if m.chat.MoveFocus(-1) {
			m.revealFocus()
		}
	case key.Matches(k, keys.SelectDown.Binding):
		if m.chat.MoveFocus(1) {
			m.revealFocus()
		}
	case key.Matches(k, keys.Expand.Binding):
		if m.inline.on {
			m.expandLive()
			return m, true
		}
		m.chat.ToggleDetails(0)
		m.revealFocus()
	default:
		return m, false
	}
	return m, true
}

// revealFocus scrolls the focused card or prompt into view (the top of it, when it is taller
// than the transcript's window). Following the tail stays following when it is in view there.
// Inline there is no window to scroll: the live part shows every card that can be selected.
func (m *Model) revealFocus() {
	if m.inline.on {
		return
	}
	if entry, card, ok := m.chat.Focused(); ok {
		m.hold(m.renderer.Reveal(m.layoutFrame(), entry, card))
	}
}
