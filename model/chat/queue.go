package chat

import "strings"

// queue is the messages the user sent while a reply streamed, oldest first. Each is sent as a
// message of its own, in order, when the turn before it is over: its last request ended with
// no tool left to run (after every tool round trip). A turn that failed or was stopped holds
// the queue (waits) until the user sends it (SendQueued), retries, or sends a new message.
type queue struct {
	texts []string
	held  bool
}

// Enqueue adds text to the queue, to be sent when the current turn is over; blank text is
// ignored. While no reply streams and nothing holds the queue, text is sent at once (Submit).
func (c *Chat) Enqueue(text string) []Effect {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if !c.State.Phase.Streaming() && !c.queue.held && len(c.queue.texts) == 0 {
		return c.Submit(text)
	}
	c.queue.texts = append(c.queue.texts, text)
	return nil
}

// Queued is the queue, oldest first; the slice is the engine's own, for reading.
func (c *Chat) Queued() []string { return c.queue.texts }

// QueueWaits reports whether messages are queued and held: the turn before them failed or was
// stopped, and they go only when the user says so (SendQueued, Retry or a new message).
func (c *Chat) QueueWaits() bool { return c.queue.held && len(c.queue.texts) > 0 }

// Unqueue takes the newest queued message out of the queue and returns it, for editing; ok is
// false when the queue is empty.
func (c *Chat) Unqueue() (text string, ok bool) {
	n := len(c.queue.texts)
	if n == 0 {
		return "", false
	}
	text = c.queue.texts[n-1]
	c.queue.texts = c.queue.texts[:n-1]
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
	text := c.queue.texts[0]
	c.queue.texts = c.queue.texts[1:]
	return c.submit(text, nil)
}

// turnOver is the end of a turn that completed: the queue's oldest message goes next, unless
// the queue is held.
func (c *Chat) turnOver() []Effect {
	if c.queue.held {
		return nil
	}
	return c.sendQueued()
}

// holdQueue keeps the queue from going by itself: the turn failed or was stopped.
func (c *Chat) holdQueue() {
	if len(c.queue.texts) > 0 {
		c.queue.held = true
	}
}
