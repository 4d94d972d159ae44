package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view"
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

// commandAfterReply is Enter on a command line while a reply streams. A command that only
// shows or changes what is held here (runsAtOnce) runs at once. Any other keeps its place in
// the order things were typed: it stays in the composer and runs once the reply and the
// messages queued before it have been answered, as Enter would run it then (a line and its
// Enter typed together as the reply ends, by a fast typist, a paste or a script, so run in
// order). The status line says so (afterReplyNote) while it waits.
func (m *Model) commandAfterReply(line string) (*Model, tea.Cmd) {
	if runsAtOnce(line) {
		return m.runCommand(line)
	}
	m.afterReply, m.notRun = line, ""
	return m, nil
}

// afterReplyNote is what the status line says while a command waits for the reply to end;
// "" when none waits.
func (m *Model) afterReplyNote() string {
	if m.afterReply == "" {
		return ""
	}
	after := "the reply"
	if n := len(m.queuedTexts()); n > 0 {
		after += " and " + format.Plural(n, "the queued message", fmt.Sprintf("%d queued messages", n))
	}
	return commandName(m.afterReply) + " runs after " + after + " (edit it or ctrl+c to cancel)."
}

// commandName is the command a command line names, as typed.
func commandName(line string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return name
}

// runAfterReply settles the command Entered while a reply streamed, once the composer takes
// Enter again: it runs, as Entered, when the reply and the queue before it were answered;
// after a stop or a failure (the queue is held) it stays in the composer, not run, for its
// own Enter (notRun). Once the composer no longer holds it as Entered (edited, cleared) it is
// forgotten, and so is a command kept by a stop. ran reports whether it ran.
func (m *Model) runAfterReply() (next *Model, cmd tea.Cmd, ran bool) {
	if m.afterReply == "" && m.notRun == "" {
		return m, nil, false
	}
	line := m.composer.Value()
	if m.notRun != line {
		m.notRun = ""
	}
	if m.afterReply != line {
		m.afterReply = ""
	}
	if m.afterReply == "" || !m.composerEnabled() {
		return m, nil, false
	}
	m.afterReply = ""
	if m.chat.QueueHeld() {
		m.notRun = line
		return m, nil, false
	}
	next, cmd = m.runCommand(line)
	return next, cmd, true
}

// notRunKey is the help line's key for a command a stop or a failure kept from running, while
// the composer holds it: Enter runs it (from Retry, Tab first).
func (m *Model) notRunKey() (view.Key, bool) {
	if m.notRun == "" || m.composerText != m.notRun {
		return view.Key{}, false
	}
	why := "the request failed" // an error, or a summary that failed
	if m.chat.State.Stopped {
		why = "the reply was stopped"
	}
	k := view.Key{Keys: "enter", Does: "run " + commandName(m.notRun) + " (not run: " + why + ")"}
	if m.focus() == phase.FocusRetry {
		k.Keys = "tab, enter"
	}
	return k, true
}
