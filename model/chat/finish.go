package chat

import (
	"encoding/json"
	"errors"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// Decision is the user's answer to an approval question.
type Decision uint8

const (
	Deny        Decision = iota // n: the model is told the user declined
	Allow                       // y: run this call
	AllowAlways                 // a: run this call and every later call of this tool this session
)

// Asking reports whether a tool waits for the user's approval.
func (c *Chat) Asking() bool {
	if c.step == nil {
		return false
	}
	_, asking := c.step.calls.Asking()
	return asking
}

// Approve answers the oldest approval question.
func (c *Chat) Approve(d Decision) []Effect { return c.out(c.approve(d)) }

func (c *Chat) approve(d Decision) []Effect {
	st := c.step
	if st == nil {
		return nil
	}
	asked, ok := st.calls.Asking()
	if !ok {
		return nil
	}
	var effects []Effect
	run := func(call phase.ToolCall) {
		effects = append(effects, live(Live{What: LiveAnswer, ID: call.ID, Name: call.Name, Allow: true}))
		effects = append(effects, c.start(st, call.ID)...)
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindToolWork, Tool: call.Name})
	}
	switch d {
	case Deny:
		st.apply(phase.CallEvent{Type: phase.CallDecline, ID: asked.ID})
		effects = append(effects, live(Live{What: LiveAnswer, ID: asked.ID, Name: asked.Name}))
		if _, more := st.calls.Asking(); !more && !st.ended {
			// Nothing runs and nothing waits: the status goes back to the reply still streaming.
			c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindText})
		}
	case AllowAlways:
		key := c.approvalKey(asked.Name)
		c.allowed[key] = true
		run(asked)
		for _, id := range st.calls.AskingIDs() {
			if other, _ := st.calls.Get(id); other.Name == asked.Name && c.approvalKey(other.Name) == key {
				run(other)
			}
		}
	default:
		run(asked)
	}
	c.ask(st)
	return append(effects, c.advance(st)...)
}

// advance ends the step once its stream has ended and every call is final: the reply and the
// results join the history, and the turn either continues with the next request or is over.
func (c *Chat) advance(st *step) []Effect {
	if !st.ended {
		return nil
	}
	if _, asking := st.calls.Asking(); asking {
		c.ask(st)
		return nil
	}
	if call, busy := st.calls.Outstanding(); busy {
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindToolWork, Tool: call.Name})
		return nil
	}
	c.step = nil
	effects := append(st.release(), c.commit(st, nil)...)
	switch {
	case st.cutOff != "":
		// The reply is incomplete: the model does not get another request on its own.
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindDone, Error: st.cutOff})
	case st.calls.Len() == 0:
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindDone})
	case c.steps >= c.cfg.MaxSteps:
		c.notice("Stopped after %d %s (--max-steps %d). The tool results are kept; send a message to continue.",
			c.steps, format.Plural(c.steps, "step", "steps"), c.cfg.MaxSteps)
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindDone})
	default:
		return append(effects, c.request()...)
	}
	c.tally(st)
	return append(effects, c.turnOver()...)
}

// fail ends the step after an error. The partial reply stays in the transcript, marked, its
// unfinished calls ended with why the request failed; the history is left as it was, so Retry
// re-sends the same request. A new message instead first commits the failed reply (see
// Submit), so the model reads what ran and why the rest did not.
func (c *Chat) fail(st *step, reason string, err *wire.Error) []Effect {
	c.step = nil
	note := reason
	if st.id == c.retryReq {
		note += RetriedNote
	}
	c.tr.SetEnd(st.entry, phase.End{Why: phase.EndFailed, Note: note})
	st.interrupt(interruptionOf(reason, err))
	c.failed, c.failErr = st, err
	c.holdQueue()
	c.focusOnFailure()
	return append(st.release(), live(Live{What: LiveEnd, End: phase.End{Why: phase.EndFailed, Note: reason}}))
}

// interruptionOf says why a request that failed with err (reason: what the user was told)
// ended its calls.
func interruptionOf(reason string, err *wire.Error) phase.Interruption {
	why := phase.CutRequestFailed
	switch {
	case err == nil:
	case errors.Is(err, wire.ErrStall):
		why = phase.CutServerStalled
	case errors.Is(err, wire.ErrConnectionDropped):
		why = phase.CutConnectionDrop
	case errors.Is(err, wire.ErrTruncated):
		why = phase.CutArgumentsCut
	}
	return phase.Interruption{Why: why, Detail: reason}
}

// commit appends the step's reply and its tool results to the history: the reply's parts are
// its reasoning, then its text runs and calls in the order its entry shows them (the order
// they streamed). After Stop (why not nil) the unfinished calls are interrupted first. Only
// the calls with an answer go in (phase.ToolCall.Answered): those that never ran (their
// arguments never complete, or still waiting for approval or a slot) are dropped, and the
// text around them joins.
func (c *Chat) commit(st *step, why *phase.Interruption) []Effect {
	if why != nil {
		st.interrupt(*why)
	}
	reply := wire.Message{Role: "assistant", ReasoningField: st.reply.ReasoningField, Native: st.reply.Native, End: st.entry.End()}
	reply.AppendReasoning(st.entry.Reasoning())
	extra := map[string]json.RawMessage{}
	for _, tc := range st.reply.Calls() {
		if tc.ExtraContent != nil {
			extra[tc.ID] = tc.ExtraContent
		}
	}
	var results []wire.Message
	answer := func(call phase.ToolCall) {
		reply.Parts = append(reply.Parts, wire.ToolCall{Index: len(results), ID: call.ID, Name: call.Name, Arguments: call.ArgsText, ExtraContent: extra[call.ID]})
		results = append(results, wire.Message{Role: "tool", ToolCallID: call.ID, Name: call.Name, Parts: wire.TextParts(call.Result.Output), Ending: call.Ending()})
	}
	cards, shown := st.entry.Cards(), map[string]bool{}
	for _, p := range st.entry.Parts() { // in the order the reply streamed
		if !p.IsCard() {
			reply.AppendText(st.entry.PartText(p))
		} else if call, ok := st.calls.Get(cards[p.Card()].ID()); ok && call.Answered() {
			shown[call.ID] = true
			answer(call)
		}
	}
	for _, call := range st.calls.List() {
		if call.Answered() && !shown[call.ID] {
			answer(call)
		}
	}
	if reply.Text() == "" && len(results) == 0 {
		return nil
	}
	var effects []Effect
	for _, m := range append([]wire.Message{reply}, results...) {
		c.History = append(c.History, m)
		effects = append(effects, Record{Message: &m})
	}
	return effects
}
