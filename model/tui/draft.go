package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// draftKey edits the draft while a reply streams, so nothing typed is lost: the composer keeps
// what is typed (its label says so) and Enter, as the label says, queues it to be sent once
// the reply has ended (queue.go). While a tool waits for approval, the keys that do not answer it go to the draft
// too (see key).
func (m *Model) draftKey(k tea.KeyPressMsg) (*Model, tea.Cmd) {
	if !m.drafting() {
		return m, nil
	}
	if key.Matches(k, keys.Queue.Binding) {
		return m.queueDraft()
	}
	if key.Matches(k, keys.Complete.Binding, keys.ToRetry.Binding, keys.Regenerate.Binding,
		keys.Earlier.Binding, keys.Later.Binding) {
		return m, nil // what would complete or recall waits for the reply's end
	}
	return m.editDraft(k)
}

// drafting reports whether the composer takes a draft it cannot send yet: a reply streams,
// or its tool waits for approval.
func (m *Model) drafting() bool {
	return m.chat.State.Phase.Streaming()
}

// editDraft passes msg to the composer, which stays blurred: the cursor stays on Stop.
func (m *Model) editDraft(msg tea.Msg) (*Model, tea.Cmd) {
	m.composer.Focus()
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	m.composer.Blur()
	return m, cmd
}
