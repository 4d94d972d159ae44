package tui

import (
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/phase"
)

// key handles one key press. What a key does depends on the phase (docs/phases.md): Enter submits
// from the composer and retries from Retry; Esc stops; y/n/A answer an approval question. Every
// key is matched against the key map (keymap.go), never spelled here.
func (m *Model) key(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	if key.Matches(k, keys.Suspend.Binding) && m.jobControl {
		return m, tea.Suspend
	}
	if m.keysOpen {
		return m.listKey(k)
	}
	if m.dropped != nil {
		return m.answerDropped(k)
	}
	if m.chat.Asking() && m.picker == nil && k.Text != "" {
		// Only a deliberate key answers (see chat.ApprovalKeys); any other typing goes on to
		// the composer as usual and makes the answer wait for the keyboard to be still.
		v, effects := m.chat.ApprovalKey(k.Text)
		if v.Answer {
			return m.after(effects)
		}
		if v.Restart {
			next, cmd := m.press(k)
			next, wait := next.after(effects)
			return next, tea.Batch(cmd, wait)
		}
	}
	return m.press(k)
}

// listKey handles a key while the key list is open: it closes or scrolls the list, Ctrl+C
// closes it and goes on as it would have; no other key acts under the list.
func (m *Model) listKey(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	switch {
	case key.Matches(k, keys.CloseList.Binding):
		m.keysOpen = false
	case key.Matches(k, keys.ListUp.Binding):
		m.scrollKeys(-1)
	case key.Matches(k, keys.ListDown.Binding):
		m.scrollKeys(1)
	case key.Matches(k, keys.PageUp.Binding):
		m.scrollKeys(-keysPage)
	case key.Matches(k, keys.PageDown.Binding):
		m.scrollKeys(keysPage)
	case key.Matches(k, keys.Quit.Binding):
		m.keysOpen = false
		return m.key(k)
	}
	return m, nil
}

// keysPage is how many keys pgup and pgdn scroll the key list.
const keysPage = 8

// scrollKeys moves the key list by n keys, no further than the page that ends with the last.
func (m *Model) scrollKeys(n int) {
	f := m.layoutFrame()
	f.Keys = m.allKeys()
	m.keysFrom = min(max(0, m.keysFrom+n), m.renderer.LastKeysPage(f))
}

// press handles a key press that is not an approval's answer.
func (m *Model) press(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	next, cmd, ok := m.everydayKey(k)
	if ok {
		return next, cmd
	}
	m = next
	if m.picker != nil && !key.Matches(k, keys.Quit.Binding) {
		return m.pickKey(k)
	}
	scrollsHere := m.homeScrolls() && !m.inline.on
	switch {
	case key.Matches(k, keys.Keys.Binding), key.Matches(k, keys.KeysHere.Binding) && m.composerEmpty():
		m.keysOpen, m.keysFrom = true, 0
		return m, nil
	case key.Matches(k, keys.Quit.Binding):
		m, cmd := m.after(m.chat.Stop())
		return m, m.quit(cmd)
	case key.Matches(k, keys.Model.Binding):
		return m.OpenModelPicker()
	case key.Matches(k, keys.PageUp.Binding):
		m.scrollPages(1)
		return m, nil
	case key.Matches(k, keys.PageDown.Binding):
		m.scrollPages(-1)
		return m, nil
	case key.Matches(k, keys.CtrlHome.Binding), key.Matches(k, keys.Home.Binding) && scrollsHere:
		m.scrollTo(math.MaxInt / 2)
		return m, nil
	case key.Matches(k, keys.CtrlEnd.Binding), key.Matches(k, keys.End.Binding) && scrollsHere:
		m.follow()
		return m, nil
	}
	if next, ok := m.cardKey(k); ok {
		return next, nil
	}
	stop := key.Matches(k, keys.Stop.Binding)
	if k.Text != "" || stop {
		m.chat.ClearFocus() // typing and Esc go back to the composer
	}
	if stop {
		return m.stop()
	}
	if !m.composerEnabled() {
		return m.draftKey(k)
	}
	if m.focus() == phase.FocusRetry {
		switch {
		case key.Matches(k, keys.Retry.Binding):
			return m.after(m.chat.Retry())
		case key.Matches(k, keys.ToComposer.Binding):
			m.focusComposer()
			return m, nil
		case key.Matches(k, keys.Regenerate.Binding):
			return m.after(m.chat.Regenerate())
		}
		if k.Text == "" {
			return m, nil
		}
		m.focusComposer() // typing while Retry has focus goes to the composer
	} else if m.chat.State.Phase == phase.Error && key.Matches(k, keys.ToRetry.Binding) {
		m.chat.FocusRetry()
		m.composer.Blur()
		return m, nil
	}
	switch {
	case key.Matches(k, keys.SendQueued.Binding) && m.canSendQueued():
		m.follow()
		return m.after(m.chat.SendQueued())
	case key.Matches(k, keys.Send.Binding):
		text := m.composer.Value()
		if strings.TrimSpace(text) == "" {
			return m, nil
		}
		if why := m.chat.ImagesRefused(nil); why != "" {
			m.warn(why) // the message stays in the composer
			return m, nil
		}
		m.composer.Reset()
		m.follow()
		remember := m.sent(text)
		if strings.HasPrefix(text, "//") {
			text = text[1:] // "//x" sends "/x"; a single slash starts a command (commands.go)
		}
		if m.mustHold(text) {
			m, held := m.holdMessage(text, true)
			return m, tea.Batch(held, remember)
		}
		m, sent := m.after(m.chat.Submit(text))
		return m, tea.Batch(sent, remember)
	case key.Matches(k, keys.Regenerate.Binding):
		m.follow()
		return m.after(m.chat.Regenerate())
	}
	m.composer, cmd = m.composer.Update(k)
	return m, cmd
}

// scrollPages scrolls by whole transcript heights (less a line of context); negative is down.
func (m *Model) scrollPages(n int) {
	height, _ := m.renderer.Layout(m.layoutFrame())
	m.scrollTo(m.linesUp() + n*max(1, height-1))
}
