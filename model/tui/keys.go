package tui

import (
	"math"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/phase"
)

// key handles one key press. What a key does depends on the phase (docs/phases.md): Enter submits
// from the composer and retries from Retry; Esc stops; y/n/a answer an approval question.
func (m *Model) key(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	if m.chat.Asking() && m.picker == nil && k.Text != "" {
		// Only a deliberate key answers (see chat.ApprovalKeys); any other typing goes on to
		// the composer as usual and makes the answer wait for the keyboard to be still.
		v := m.approval.Key(k.Text)
		if v.Answer {
			return m.after(m.chat.Approve(v.Decision))
		}
		if v.Restart {
			next, cmd := m.press(k)
			return next, tea.Batch(cmd, m.quietAfter(v.Gen))
		}
	}
	return m.press(k)
}

// press handles a key press that is not an approval's answer.
func (m *Model) press(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	next, cmd, ok := m.everydayKey(k)
	if ok {
		return next, cmd
	}
	m = next
	st := m.chat.State
	if m.picker != nil && k.String() != "ctrl+c" {
		return m.pickKey(k)
	}
	switch {
	case m.keysOpen && (k.String() == "esc" || k.String() == "f1" || k.Text == "?"):
		m.keysOpen = false
		return m, nil
	case k.String() == "f1", k.Text == "?" && m.composerEmpty():
		m.keysOpen, m.keysFrom = true, 0
		return m, nil
	case m.keysOpen && keysScroll[k.String()] != 0:
		m.keysFrom = min(max(0, m.keysFrom+keysScroll[k.String()]), len(keyMap)-1)
		return m, nil
	}
	switch k.String() {
	case "ctrl+c":
		m, cmd := m.after(m.chat.Stop())
		return m, m.quit(cmd)
	case "ctrl+p":
		return m.OpenModelPicker()
	case "pgup":
		m.scrollPages(1)
		return m, nil
	case "pgdown":
		m.scrollPages(-1)
		return m, nil
	case "ctrl+home":
		m.scrollTo(math.MaxInt / 2)
		return m, nil
	case "ctrl+end":
		m.follow()
		return m, nil
	case "home", "end":
		if m.homeScrolls() && !m.inline.on {
			if k.String() == "home" {
				m.scrollTo(math.MaxInt / 2)
			} else {
				m.follow()
			}
			return m, nil
		}
	}
	if next, ok := m.cardKey(k); ok {
		return next, nil
	}
	if k.Text != "" || k.String() == "esc" {
		m.chat.ClearFocus() // typing and Esc go back to the composer
	}
	if k.String() == "esc" {
		return m.after(m.chat.Stop())
	}
	if !m.composerEnabled() {
		return m.draftKey(k)
	}
	if m.focus() == phase.FocusRetry {
		switch k.String() {
		case "enter":
			return m.after(m.chat.Retry())
		case "tab":
			m.focusComposer()
			return m, nil
		case "ctrl+r":
			return m.after(m.chat.Regenerate())
		}
		if k.Text == "" {
			return m, nil
		}
		m.focusComposer() // typing while Retry has focus goes to the composer
	} else if st.Phase == phase.Error && k.String() == "shift+tab" {
		m.composerFocus = false
		m.composer.Blur()
		return m, nil
	}
	switch k.String() {
	case "enter":
		text := m.composer.Value()
		if strings.TrimSpace(text) == "" {
			return m, nil
		}
		m.composer.Reset()
		m.follow()
		remember := m.sent(text)
		if strings.HasPrefix(text, "//") {
			text = text[1:] // "//x" sends "/x"; a single slash starts a command (commands.go)
		}
		m, sent := m.after(m.chat.Submit(text))
		return m, tea.Batch(sent, remember)
	case "ctrl+r":
		m.follow()
		return m.after(m.chat.Regenerate())
	}
	m.composer, cmd = m.composer.Update(k)
	return m, cmd
}

// keysScroll is how far the keys scroll the key list while it is open, in keys.
var keysScroll = map[string]int{"up": -1, "down": 1, "pgup": -keysPage, "pgdown": keysPage}

const keysPage = 8

// scrollPages scrolls by whole transcript heights (less a line of context); negative is down.
func (m *Model) scrollPages(n int) {
	height, _ := m.renderer.Layout(m.layoutFrame())
	m.scrollTo(m.scrollUp + n*max(1, height-1))
}
