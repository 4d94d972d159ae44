package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/attach"
	"github.com/phasechat/phasechat/model/chat"
)

// The queue of messages sent while a reply streams is the engine's (chat.Enqueue); the model
// only turns keys into its calls and shows it (view.Frame.Queued).

// queueDraft is Enter while a reply streams: the composer's text joins the queue, to be sent
// when the turn is over, with the files its @mentions name read now (as a message sent at once
// is). A command line waits in the composer instead, and runs once the reply has ended
// (draft.go).
func (m *Model) queueDraft() (*Model, tea.Cmd) {
	text := m.composer.Value()
	if strings.TrimSpace(text) == "" {
		return m, nil
	}
	if chat.IsCommand(text) {
		return m.commandAfterReply(text), nil
	}
	m.composer.Reset()
	remember := m.sent(text)
	if strings.HasPrefix(text, "//") {
		text = text[1:] // "//x" sends "/x"
	}
	if m.files != nil && (attach.MayMention(text) || len(m.toQueue) > 0) {
		// Texts join the queue in the order typed: one waiting for its files holds back those
		// typed after it.
		m.toQueue = append(m.toQueue, text)
		if len(m.toQueue) > 1 {
			return m, remember
		}
		return m, tea.Batch(m.readMentions(text, true), remember)
	}
	next, cmd := m.after(m.chat.Enqueue(text))
	return next, tea.Batch(cmd, remember)
}

// onQueuedRead queues the oldest text waiting for its files, with them, or puts it back in an
// empty composer saying why a file could not be read; the next waiting text is read then.
func (m *Model) onQueuedRead(msg filesRead) (*Model, tea.Cmd) {
	if len(m.toQueue) == 0 || m.toQueue[0] != msg.text {
		return m, nil
	}
	m.toQueue = m.toQueue[1:]
	var sent tea.Cmd
	if msg.err != nil {
		if strings.TrimSpace(m.composer.Value()) == "" {
			m.composer.SetValue(msg.text)
			m.composer.MoveToEnd()
		}
		m.warn(sentence(msg.err.Error()))
	} else {
		if len(msg.notes) > 0 {
			m.say(format.Sentence(strings.Join(msg.notes, "; ")) + " — queued.")
		}
		m, sent = m.after(m.chat.EnqueueWith(msg.text, msg.files))
	}
	for len(m.toQueue) > 0 && !attach.MayMention(m.toQueue[0]) {
		var more tea.Cmd
		m, more = m.after(m.chat.Enqueue(m.toQueue[0]))
		m.toQueue, sent = m.toQueue[1:], tea.Batch(sent, more)
	}
	if len(m.toQueue) > 0 {
		return m, tea.Batch(sent, m.readMentions(m.toQueue[0], true))
	}
	return m, sent
}

// editQueued takes the newest queued message back into the empty composer, for editing:
// Enter queues it again (or sends it, once the reply has ended), Ctrl+C drops it.
func (m *Model) editQueued() (*Model, tea.Cmd) {
	text, ok := m.chat.Unqueue()
	if !ok {
		return m, nil
	}
	m.recall(text)
	m.say("Queued message back in the composer: enter queues it again, ctrl+c drops it.")
	return m, nil
}

// dropQueue is Ctrl+C on an empty composer while messages are queued: the queue goes, and the
// next Ctrl+C quits.
func (m *Model) dropQueue() (*Model, tea.Cmd) {
	n := m.chat.DropQueue() + len(m.toQueue)
	m.toQueue = nil
	m.ed.quitArmed = true
	m.say(fmt.Sprintf("%s dropped. Press Ctrl+C again to quit.", format.Plural(n, "The queued message", fmt.Sprintf("%d queued messages", n))))
	return m, nil
}

// queued: messages wait in the queue.
func (m *Model) queued() bool { return len(m.chat.Queued()) > 0 }

// canQueue: Enter would queue what the composer holds.
func (m *Model) canQueue() bool {
	return m.drafting() && strings.TrimSpace(m.composerText) != "" && !chat.IsCommand(m.composerText)
}

// canEditQueued: Up would take a queued message back into the composer.
func (m *Model) canEditQueued() bool {
	return m.queued() && m.composerEmpty() && (m.drafting() || m.composing())
}

// canSendQueued: Enter on the empty composer sends the queue that waits.
func (m *Model) canSendQueued() bool {
	return m.chat.QueueWaits() && m.composing() && m.composerEmpty()
}
