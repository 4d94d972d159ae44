package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
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
func (c *Chat) Asking() bool { return c.step != nil && len(c.step.asking) > 0 }

// Approve answers the oldest approval question.
func (c *Chat) Approve(d Decision) []Effect {
	st := c.step
	if st == nil || len(st.asking) == 0 {
		return nil
	}
	id := st.asking[0]
	st.asking = st.asking[1:]
	c.tr.SetAsking(st.entry, id, false)
	name := st.callName(id)
	var effects []Effect
	run := func(id string) {
		call, _ := st.calls.Get(id)
		effects = append(effects, c.start(st, id)...)
		c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindToolWork, Tool: call.Name})
	}
	switch d {
	case Deny:
		c.refuse(st, id, resultDeclined)
		c.tr.SetDeclined(st.entry, id)
		if len(st.asking) == 0 && !st.ended {
			// Nothing runs and nothing waits: the status goes back to the reply still streaming.
			c.State = phase.Reduce(c.State, phase.Event{Kind: phase.KindText})
		}
	case AllowAlways:
		key := c.approvalKey(name)
		c.allowed[key] = true
		run(id)
		waiting := st.asking[:0]
		for _, other := range st.asking {
			if st.callName(other) == name && c.approvalKey(name) == key {
				c.tr.SetAsking(st.entry, other, false)
				run(other)
			} else {
				waiting = append(waiting, other)
			}
		}
		st.asking = waiting
	default:
		run(id)
	}
	st.numberAsking()
	c.ask(st)
	return append(effects, c.advance(st)...)
}

// advance ends the step once its stream has ended and every call is final: the reply and the
// results join the history, and the turn either continues with the next request or is over.
func (c *Chat) advance(st *step) []Effect {
	if !st.ended {
		return nil
	}
	if len(st.asking) > 0 {
		c.ask(st)
		return nil
	}
	if call, busy := st.outstanding(); busy {
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
		effects = append(effects, c.request()...)
	}
	return effects
}

// fail ends the step after an error. The partial reply stays in the transcript, marked, its
// unfinished calls ended with why the request failed; the history is left as it was, so Retry
// re-sends the same request. A new message instead first commits the failed reply (see
// Submit), so the model reads what ran and why the rest did not.
func (c *Chat) fail(st *step, reason string, err *wire.Error) []Effect {
	c.step = nil
	c.tr.SetMark(st.entry, transcript.MarkFailed, reason)
	st.interrupt(interruptionOf(reason, err))
	c.failed, c.failErr = st, err
	return st.release()
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

// endedWhy says why a reply ended before it was whole, from its entry's mark; "" when whole.
func endedWhy(e *transcript.Entry) string {
	switch e.Mark() {
	case transcript.MarkStopped:
		return endedStopped
	case transcript.MarkFailed:
		return endedFailed + e.Note()
	case transcript.MarkCutOff:
		return endedCutOff + e.Note()
	}
	return ""
}

// The words endedWhy begins with, by mark.
const (
	endedStopped = "stopped by the user"
	endedFailed  = "the request failed: "
	endedCutOff  = "cut off: "
)

// endedMark is the mark and note endedWhy gave why; ok is false for words it never gives (a
// log written by another version, or edited), which then mark nothing.
func endedMark(why string) (m transcript.Mark, note string, ok bool) {
	switch {
	case why == endedStopped:
		return transcript.MarkStopped, "", true
	case strings.HasPrefix(why, endedFailed):
		return transcript.MarkFailed, strings.TrimPrefix(why, endedFailed), true
	case strings.HasPrefix(why, endedCutOff):
		return transcript.MarkCutOff, strings.TrimPrefix(why, endedCutOff), true
	}
	return transcript.MarkNone, "", false
}

// commit appends the step's reply and its tool results to the history. After Stop (why not
// nil) the unfinished calls are interrupted first. Calls that never ran (their arguments never
// complete, or still waiting for approval) are dropped; calls that ran keep their result, or
// the interruption that ended them.
func (c *Chat) commit(st *step, why *phase.Interruption) []Effect {
	for _, id := range st.asking {
		if st.unran == nil {
			st.unran = map[string]bool{}
		}
		st.unran[id] = true
	}
	if why != nil {
		st.interrupt(*why)
	}
	reply := wire.Message{Role: "assistant", Content: st.entry.Text(), Reasoning: st.entry.Reasoning(), ReasoningField: st.reply.ReasoningField, Native: st.reply.Native}
	extra := map[string]json.RawMessage{}
	for _, tc := range st.reply.ToolCalls {
		if tc.ExtraContent != nil {
			extra[tc.ID] = tc.ExtraContent
		}
	}
	var results []wire.Message
	for _, call := range st.calls.List() {
		var text string
		cut, _ := call.Error.(phase.Interruption)
		switch {
		case call.Status == phase.CallPending, call.Status == phase.CallRunning, st.unran[call.ID], cut.Pending, st.unsent[call.ID]:
			continue
		case call.Status == phase.CallDone:
			text = resultText(call.Result)
		case call.Status == phase.CallError:
			text = errorText(call.Error)
		}
		reply.ToolCalls = append(reply.ToolCalls, wire.ToolCall{Index: len(reply.ToolCalls), ID: call.ID, Name: call.Name, Arguments: call.ArgsText, ExtraContent: extra[call.ID], TextAfter: st.entry.TextAfter(call.ID)})
		results = append(results, wire.Message{Role: "tool", ToolCallID: call.ID, Name: call.Name, Content: text})
	}
	if reply.Content == "" && len(reply.ToolCalls) == 0 {
		return nil
	}
	var effects []Effect
	for i, m := range append([]wire.Message{reply}, results...) {
		c.History = append(c.History, m)
		rec := Record{Message: &m}
		if i == 0 {
			rec.Ended = endedWhy(st.entry)
		}
		effects = append(effects, rec)
	}
	return effects
}

func resultText(r any) string {
	if tr, ok := r.(tools.Result); ok {
		return tr.Output
	}
	return fmt.Sprint(r)
}
