package chat

import (
	"fmt"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/stream/wire"
)

// queue is the messages the user sent while a reply streamed, oldest first. Each is sent as a
// message of its own, in order, when the turn before it is over: its last request ended with
// no tool left to run (after every tool round trip). A turn that failed or was stopped holds
// the queue (waits) until the user sends it (SendQueued), retries, or sends a new message.
// files[i] are the files texts[i] is sent with (those its @path mentions name).
type queue struct {
	texts []string
	files [][]wire.Attachment
	held  bool
}

// Enqueue is EnqueueWith without files.
func (c *Chat) Enqueue(text string) []Effect { return c.EnqueueWith(text, nil) }

// EnqueueWith adds text, to be sent with files, to the queue, to be sent when the current
// turn is over; blank text is ignored. While no reply streams and nothing holds the queue,
// text is sent at once (SubmitWith).
func (c *Chat) EnqueueWith(text string, files []wire.Attachment) []Effect {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if !c.State.Phase.Streaming() && !c.queue.held && len(c.queue.texts) == 0 {
		return c.SubmitWith(text, files)
	}
	c.queue.texts = append(c.queue.texts, text)
	c.queue.files = append(c.queue.files, files)
	return nil
}

// Queued is the queue, oldest first; the slice is the engine's own, for reading.
func (c *Chat) Queued() []string { return c.queue.texts }

// QueueWaits reports whether messages are queued and held: the turn before them failed or was
// stopped, and they go only when the user says so (SendQueued, Retry or a new message).
func (c *Chat) QueueWaits() bool { return c.queue.held && len(c.queue.texts) > 0 }

// QueueHeld reports whether the queue is held: the last turn failed or was stopped and no turn
// has begun since, so nothing queued goes by itself.
func (c *Chat) QueueHeld() bool { return c.queue.held }

// Unqueue takes the newest queued message out of the queue and returns its text, for editing
// (its files are dropped: the text names them again when queued again); ok is false when the
// queue is empty.
func (c *Chat) Unqueue() (text string, ok bool) {
	n := len(c.queue.texts)
	if n == 0 {
		return "", false
	}
	text = c.queue.texts[n-1]
	c.queue.texts, c.queue.files = c.queue.texts[:n-1], c.queue.files[:n-1]
	return text, true
}

// DropQueue empties the queue and returns how many messages it held.
func (c *Chat) DropQueue() int {
	n := len(c.queue.texts)
	c.queue = queue{}
	return n
}

// SendQueued sends the oldest queued message now, the rest following turn by turn; nothing
// while a reply streams (the queue goes when its turn is over) or when the queue is empty.
func (c *Chat) SendQueued() []Effect {
	if c.State.Phase.Streaming() {
		return nil
	}
	return c.out(c.sendQueued())
}

// sendQueued sends the oldest queued message as the next turn.
func (c *Chat) sendQueued() []Effect {
	if len(c.queue.texts) == 0 {
		c.queue.held = false
		return nil
	}
	text, files := c.queue.texts[0], c.queue.files[0]
	c.queue.texts, c.queue.files = c.queue.texts[1:], c.queue.files[1:]
	return c.submit(text, files)
}

// turnOver is the end of a turn that completed: the queue's oldest message goes next, unless
// the queue is held.
func (c *Chat) turnOver() []Effect {
	if c.queue.held {
		return nil
	}
	return c.sendQueued()
}

// holdQueue keeps the queue from going by itself: the turn failed or was stopped. It holds an
// empty queue too, so that a message queued after the stop (a front end still reading its
// files) waits as those queued before it would have; a new turn lets go of it.
func (c *Chat) holdQueue() { c.queue.held = true }

// QueueCommand is /queue with its argument, the same in both front ends: "" lists the queue,
// "send" sends it now (once no reply streams), "clear" drops it. lines is what to tell the
// user; effects start the request a send makes.
func (c *Chat) QueueCommand(arg string) (lines []string, effects []Effect) {
	n := len(c.queue.texts)
	switch strings.TrimSpace(arg) {
	case "":
		if n == 0 {
			return []string{"No message is queued. While a reply streams, Enter queues the message for when it ends."}, nil
		}
		lines = []string{queueSummary(n, c.QueueWaits())}
		for i, text := range c.queue.texts {
			lines = append(lines, fmt.Sprintf("%d. %s", i+1, format.OneLine(text, 200)))
		}
		return lines, nil
	case "clear":
		if n == 0 {
			return []string{"No message is queued."}, nil
		}
		c.DropQueue()
		return []string{fmt.Sprintf("Dropped %d queued %s.", n, format.Plural(n, "message", "messages"))}, nil
	case "send":
		switch {
		case n == 0:
			return []string{"No message is queued."}, nil
		case c.State.Phase.Streaming():
			return []string{"The queue is sent when this reply ends."}, nil
		}
		return nil, c.SendQueued()
	}
	return []string{"Usage: /queue lists the queued messages, /queue send sends them now, /queue clear drops them."}, nil
}

// queueSummary says how many messages are queued and when they go.
func queueSummary(n int, waits bool) string {
	what := fmt.Sprintf("%d queued %s", n, format.Plural(n, "message", "messages"))
	if waits {
		return what + ", waiting after the error or stop: /queue send sends them, /queue clear drops them."
	}
	return what + ", sent one by one as each turn ends:"
}
