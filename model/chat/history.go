package chat

import (
	"slices"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// sessionEnded is how a call whose result a resumed log does not hold ended.
var sessionEnded = phase.Ending{Status: phase.CallInterrupted, Interruption: phase.Interruption{Why: phase.CutSessionEnded}}

// repairHistory makes a history (e.g. a session log cut off mid-turn) valid to send: every
// assistant tool call gets exactly one tool message right after its assistant message (a
// missing one is answered as interrupted by the session's end), and tool messages that answer no call,
// system messages and messages of unknown roles are dropped.
func repairHistory(in []wire.Message) []wire.Message {
	out := make([]wire.Message, 0, len(in))
	for i := 0; i < len(in); i++ {
		m := in[i]
		switch m.Role {
		case "user":
			out = append(out, m)
		case "assistant":
			// Results answer calls in order; calls sharing an id (a log of a server that
			// repeats them) get distinct ids, id_2, id_3 …, as a live stream gives them, so
			// that the request is valid.
			answered := map[string][]wire.Message{}
			for i+1 < len(in) && in[i+1].Role == "tool" {
				i++
				answered[in[i].ToolCallID] = append(answered[in[i].ToolCallID], in[i])
			}
			given := m.ToolCalls
			m.ToolCalls = slices.Clone(given)
			wire.DistinctIDs(m.ToolCalls)
			var results []wire.Message
			for j, call := range given {
				id := m.ToolCalls[j].ID
				var res wire.Message
				if q := answered[call.ID]; len(q) > 0 {
					res, answered[call.ID] = q[0], q[1:]
				} else {
					res = wire.Message{Role: "tool", Name: call.Name, Content: sessionEnded.Interruption.Text(), Ending: sessionEnded}
				}
				m.ToolCalls[j].ID, res.ToolCallID = id, id
				results = append(results, res)
			}
			out = append(append(out, m), results...)
		}
	}
	return out
}

// entriesFor rebuilds the transcript of a valid history: user and assistant messages become
// entries, their text and cards in the order the reply showed them live (each call's
// TextAfter), marked as they ended (End), and each tool message becomes the result on its
// call's card, in the state its Ending says (done when it says none).
// Cards get their argument summary from tools when it is not nil.
func entriesFor(tr *transcript.Transcript, h []wire.Message, box Toolbox) {
	owner := map[string]*transcript.Entry{} // call id → the entry holding its card
	for _, m := range h {
		switch m.Role {
		case "user":
			tr.Add(transcript.Spec{Role: transcript.RoleUser, Text: m.Content})
		case "assistant":
			spec := transcript.Spec{Role: transcript.RoleAssistant, Text: m.Content, Reasoning: m.Reasoning}
			for _, call := range m.ToolCalls {
				card := transcript.CardSpec{Call: phase.ToolCall{ID: call.ID, Name: call.Name, ArgsText: call.Arguments, Status: phase.CallDone}, TextAfter: call.TextAfter}
				if box != nil {
					card.Summary = box.Describe(phase.ToolCall{ID: call.ID, Name: call.Name, ArgsText: call.Arguments})
				}
				spec.Cards = append(spec.Cards, card)
			}
			spec.End = m.End // marked as the reply was when it ended
			e := tr.Add(spec)
			for _, call := range m.ToolCalls {
				owner[call.ID] = e
			}
		case "tool":
			e := owner[m.ToolCallID]
			if e == nil {
				continue
			}
			card, _ := e.Card(m.ToolCallID)
			call := card.Call()
			if end := m.Ending; end.Status.Final() {
				call.Status, call.NotRun, call.Interruption = end.Status, end.NotRun, end.Interruption
			}
			call.Result = phase.ToolResult{Output: m.Content, IsError: call.Status.Failed()}
			tr.SetCall(e, call)
		}
	}
}
