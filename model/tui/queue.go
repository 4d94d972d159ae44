package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/chat"
)

// The queue of messages sent while a reply streams is the engine's (chat.Enqueue); the model
// only turns keys into its calls and shows it (view.Frame.Queued).

// queueDraft is Enter while a reply streams: the composer's text joins the queue, to be sent
// when the turn is over. A command line waits in the composer instead: it is run, not sent.
func (m *Model) queueDraft() (*Model, tea.Cmd) {
	text := m.composer.Value()
	if strings.TrimSpace(text) == "" || chat.IsCommand(text) {
		return m, nil
	}
	m.composer.Reset()
	remember := m.sent(text)
	if strings.HasPrefix(text, "//") {
		text = text[1:] // "//x" sends "/x"
	}
	next, cmd := m.after(m.chat.Enqueue(text))
	return next, tea.Batch(cmd, remember)
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
	n := m.chat.DropQueue()
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
