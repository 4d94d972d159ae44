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
			given := m.Calls()
			distinct := slices.Clone(given)
			wire.DistinctIDs(distinct)
			m.SetCalls(distinct)
			var results []wire.Message
			for j, call := range given {
				id := distinct[j].ID
				var res wire.Message
				if q := answered[call.ID]; len(q) > 0 {
					res, answered[call.ID] = q[0], q[1:]
				} else {
					res = wire.Message{Role: "tool", Name: call.Name, Parts: wire.TextParts(sessionEnded.Interruption.Text()), Ending: sessionEnded}
				}
				res.ToolCallID = id
				results = append(results, res)
			}
			out = append(append(out, m), results...)
		}
	}
	return out
}

// entriesFor rebuilds the transcript of a valid history: user and assistant messages become
// entries, an assistant's parts added one by one as they streamed (so its text runs and cards
// come in the order they did live), marked as they ended (End), and each tool message becomes
// the result on its call's card, in the state its Ending says (done when it says none).
// Cards get their argument summary from tools when it is not nil.
func entriesFor(tr *transcript.Transcript, h []wire.Message, box Toolbox) {
	owner := map[string]*transcript.Entry{} // call id → the entry holding its card
	for _, m := range h {
		switch m.Role {
		case "user":
			tr.Add(promptSpec(m.Text(), m.Attachments))
		case "assistant":
			reasoning := m.Reasoning()
			e := tr.Add(transcript.Spec{Role: transcript.RoleAssistant, Reasoning: reasoning, End: m.End})
			for _, p := range m.Parts {
				switch p := p.(type) {
				case wire.Text:
					tr.SetReply(e, e.Text()+p.Text, reasoning)
				case wire.ToolCall:
					call := phase.ToolCall{ID: p.ID, Name: p.Name, ArgsText: p.Arguments, Status: phase.CallDone}
					tr.SetCall(e, call)
					if box != nil {
						tr.SetSummary(e, p.ID, box.Describe(call))
					}
					owner[p.ID] = e
				}
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
			call.Result = phase.ToolResult{Output: m.Text(), IsError: call.Status.Failed()}
			tr.SetCall(e, call)
		}
	}
}
