package tui

import (
	"strings"

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
	if key.Matches(k, keys.Complete.Binding) {
		m.completeTyped()
		return m, nil
	}
	if key.Matches(k, keys.ToRetry.Binding, keys.Regenerate.Binding, keys.Earlier.Binding, keys.Later.Binding) {
		return m, nil // what would recall or retry waits for the reply's end
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

// commandAfterReply is Enter on a command line while a reply streams: the line stays in the
// composer and runs as soon as the reply has ended, as Enter would run it then. A line and its
// Enter typed together as the reply ends (a fast typist, a paste, a script) so run in order.
func (m *Model) commandAfterReply(line string) *Model {
	m.afterReply = line
	name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	m.say(name + " runs when the reply ends (edit it or ctrl+c to cancel).")
	return m
}

// runAfterReply runs the command Entered while the reply streamed, once the composer takes
// Enter again, if the composer still holds it as Entered: an edited line waits for its own
// Enter.
func (m *Model) runAfterReply() (*Model, tea.Cmd) {
	if m.afterReply == "" || !m.composerEnabled() {
		return m, nil
	}
	line := m.afterReply
	m.afterReply = ""
	if m.composer.Value() != line {
		return m, nil
	}
	return m.runCommand(line)
}
