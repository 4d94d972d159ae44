package chat

import (
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// Withdraw is what stopping does before the reply's first byte: while the turn's first
// request has shown nothing (no text, reasoning or call), it ends that request and takes the
// user's message back out of the history and the transcript, returning its text for the
// composer; the engine is then idle, as if it had not been sent. ok is false, and nothing
// changes, when the reply has begun or the request is not the turn's first: Stop is then
// what stopping does.
//
// The message stays in the session log it was recorded in.
func (c *Chat) Withdraw() (text string, effects []Effect, ok bool) {
	st := c.step
	if st == nil || !c.State.Phase.Streaming() || c.steps != 1 || st.calls.Len() > 0 ||
		st.entry.Text() != "" || st.entry.Reasoning() != "" || len(c.History) == 0 {
		return "", nil, false
	}
	last := c.History[len(c.History)-1]
	if last.Role != "user" {
		return "", nil, false
	}
	c.step = nil
	effects = st.release()
	c.History = c.History[:len(c.History)-1]
	entries := c.tr.Entries()
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Role() == transcript.RoleUser {
			c.tr.Truncate(i)
			break
		}
	}
	c.State, c.steps = phase.Reduce(c.State, phase.Event{Kind: phase.KindWithdraw}), 0
	c.holdQueue()
	return last.Text(), effects, true
}

// Withdrawn is what a front end says when Withdraw gave the message back.
const Withdrawn = "Stopped before the reply began: your message is back in the composer, not sent."
