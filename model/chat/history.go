package chat

import (
	"slices"
	"strings"

	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// resultInterrupted answers a call whose result a resumed log does not hold.
const resultInterrupted = "No result: the session ended before this tool finished."

// notRun holds the engine's own answers for calls that did not run to the end; a rebuilt
// transcript shows those cards as failed, as the live one did.
var notRun = map[string]bool{resultStopped: true, resultDeclined: true, resultNoAsk: true, resultNoTools: true, resultInterrupted: true}

// resultStopped answers a call the user stopped.
var resultStopped = phase.Interruption{Why: phase.CutByUser}.Error()

// endedEarly reports whether a tool message is one of the engine's own answers for a call that
// did not run to the end.
func endedEarly(content string) bool {
	return notRun[content] || strings.HasPrefix(content, "interrupted: ")
}

// repairHistory makes a history (e.g. a session log cut off mid-turn) valid to send: every
// assistant tool call gets exactly one tool message right after its assistant message (a
// missing one is answered with resultInterrupted), and tool messages that answer no call,
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
					res = wire.Message{Role: "tool", Name: call.Name, Content: resultInterrupted}
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
// TextAfter), and each tool message becomes the result on its call's card — a failed card
// when the result is one of the engine's notRun answers.
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
					card.Summary = box.Describe(tools.Call{ID: call.ID, Name: call.Name, Arguments: call.Arguments})
				}
				spec.Cards = append(spec.Cards, card)
			}
			e := tr.Add(spec)
			if mark, note, ok := endedMark(m.Ended); ok {
				tr.SetMark(e, mark, note) // as the reply was marked when it ended
			}
			for _, call := range m.ToolCalls {
				owner[call.ID] = e
			}
		case "tool":
			e := owner[m.ToolCallID]
			if e == nil {
				continue
			}
			if endedEarly(m.Content) {
				card, _ := e.Card(m.ToolCallID)
				call := card.Call()
				call.Status, call.Error = phase.CallError, m.Content
				tr.SetCall(e, call)
				if m.Content == resultDeclined {
					tr.SetDeclined(e, m.ToolCallID)
				}
			}
			tr.SetResult(e, m.ToolCallID, m.Content, 0)
		}
	}
}
