package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/chat"
)

// The queue of messages sent while a reply streams is the engine's (chat.Enqueue); the model
// only turns keys into its calls and shows it (view.Frame.Queued), with the messages that wait
// for their files before joining it (held.go), which are queued messages to the user.

// queueDraft is Enter while a reply streams: the composer's text joins the queue, to be sent
// when the turn is over, with the files its @mentions name read now (as a message sent at once
// is); it waits for them, and for what was held before it, drawn as queued. A command line
// stays in the composer instead, and runs after the reply and the messages queued before it
// (draft.go).
func (m *Model) queueDraft() (*Model, tea.Cmd) {
	text := m.composer.Value()
	if strings.TrimSpace(text) == "" {
		return m, nil
	}
	if chat.IsCommand(text) {
		return m.commandAfterReply(text)
	}
	m.composer.Reset()
	remember := m.sent(text)
	if strings.HasPrefix(text, "//") {
		text = text[1:] // "//x" sends "/x"
	}
	if m.mustHold(text) {
		m, held := m.holdMessage(text, false)
		return m, tea.Batch(held, remember)
	}
	next, cmd := m.after(m.chat.Enqueue(text))
	return next, tea.Batch(cmd, remember)
}

// editQueued takes the newest queued message back into the empty composer, for editing:
// Enter queues it again (or sends it, once the reply has ended), Ctrl+C drops it. A message
// still waiting for its files is newer than the engine's queue.
func (m *Model) editQueued() (*Model, tea.Cmd) {
	text, cmd, ok := m.unholdNewestMessage()
	if !ok {
		if text, ok = m.chat.Unqueue(); !ok {
			return m, nil
		}
	}
	m.recall(text)
	m.say("Queued message back in the composer: enter queues it again, ctrl+c drops it.")
	return m, cmd
}

// dropQueue is Ctrl+C on an empty composer while messages are queued: the queue goes, and the
// next Ctrl+C quits.
func (m *Model) dropQueue() (*Model, tea.Cmd) {
	n, cmd := m.dropQueued()
	m.ed.quitArmed = true
	m.say(fmt.Sprintf("%s dropped. Press Ctrl+C again to quit.", format.Plural(n, "The queued message", fmt.Sprintf("%d queued messages", n))))
	return m, cmd
}

// clearQueue is /queue clear while messages wait for their files: they are dropped with the
// engine's queue.
func (m *Model) clearQueue() (*Model, tea.Cmd) {
	n, cmd := m.dropQueued()
	m.say(fmt.Sprintf("Dropped %d queued %s.", n, format.Plural(n, "message", "messages")))
	return m, cmd
}

// dropQueued drops the queued messages, and those waiting for their files, and returns how
// many there were.
func (m *Model) dropQueued() (int, tea.Cmd) {
	held, cmd := m.dropHeldMessages()
	return m.chat.DropQueue() + held, cmd
}

// queued: messages wait in the queue, or for their files before joining it.
func (m *Model) queued() bool { return len(m.chat.Queued()) > 0 || m.holdsMessages() }

// queuedTexts is what the screen draws as queued: the engine's queue, then the messages
// waiting for their files, which join it in that order.
func (m *Model) queuedTexts() []string {
	held := m.heldTexts()
	if len(held) == 0 {
		return m.chat.Queued()
	}
	return append(append([]string(nil), m.chat.Queued()...), held...)
}

// canQueue: Enter would queue what the composer holds.
func (m *Model) canQueue() bool {
	return m.drafting() && strings.TrimSpace(m.composerText) != "" && !chat.IsCommand(m.composerText)
}

// canEditQueued: Up would take a queued message back into the composer.
func (m *Model) canEditQueued() bool {
	return m.queued() && m.composerEmpty() && (m.drafting() || m.composing())
}

// canRunAfterReply: Enter would have the command the composer holds run once the reply (and
// the queue before it) has been answered.
func (m *Model) canRunAfterReply() bool {
	return m.drafting() && chat.IsCommand(m.composerText) && !runsAtOnce(m.composerText) && m.afterReply != m.composerText
}

// canSendQueued: Enter on the empty composer sends the queue that waits.
func (m *Model) canSendQueued() bool {
	return m.chat.QueueWaits() && m.composing() && m.composerEmpty()
}
