package sessionlog

import (
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// liveRecord is a chat.Live in the log: {"what":"text","text":"…"}, {"what":"run","id":"…",
// "name":"…"} and so on; members that say nothing are left out.
type liveRecord struct {
	What  chat.LiveWhat `json:"what"`
	Text  string        `json:"text,omitempty"`
	ID    string        `json:"id,omitempty"`
	Name  string        `json:"name,omitempty"`
	Args  string        `json:"args,omitempty"`
	Allow bool          `json:"allow,omitempty"`
	Call  *callRecord   `json:"call,omitempty"`
	End   *endRecord    `json:"end,omitempty"`
	Usage *wire.Usage   `json:"usage,omitempty"`
	// raw is, for streamed text read by readLiveRecord, the text as the line writes it (a JSON
	// string, quotes included) in place of Text, in the line's storage: valid until the next
	// line is read.
	raw []byte
}

func liveRecordOf(l *chat.Live) *liveRecord {
	return &liveRecord{What: l.What, Text: l.Text, ID: l.ID, Name: l.Name, Args: l.Args, Allow: l.Allow,
		Call: callRecordOf(l.Ending), End: endRecordOf(l.End), Usage: l.Usage}
}

// crashed is how a reply the log holds no final message for ended, when its records do not
// say.
var crashed = phase.End{Why: phase.EndCrashed, Note: phase.End{Why: phase.EndCrashed}.Text()}

// inFlight is a request the log began (a "begin" record) and holds no final reply for yet:
// what its live records say happened, in order.
type inFlight struct {
	// pieces are its text, reasoning and calls so far, in the order they came; the streamed
	// text is kept as written, in written, and read only if the request lands (messages).
	pieces  []piece
	written []byte
	calls   []*liveCall
	byID    map[string]*liveCall
	end     *phase.End // how it ended, when a record says so
	// usage is what the server reported of the request's usage, until a usage record gives
	// it whole.
	usage *wire.Usage
}

// piece is one part of a reply in flight, of a type a logged part has: "text" or
// "reasoning" (text, or written[from:to] as a JSON string), or "call", calls[call] (its
// arguments in text).
type piece struct {
	kind     string
	text     string
	from, to int
	call     int
}

// newFlight is a request begun, reusing the storage of one given up or superseded (nil: none).
func newFlight(old *inFlight) *inFlight {
	if old == nil {
		return &inFlight{}
	}
	return &inFlight{pieces: old.pieces[:0], written: old.written[:0]}
}

// liveCall is a call of a request in flight.
type liveCall struct {
	id, name                string
	asked, answered, denied bool
	ran                     bool
	result                  *wire.Message
}

// apply folds one live record into the request.
func (f *inFlight) apply(r *liveRecord) {
	call := f.byID[r.ID]
	switch r.What {
	case chat.LiveText, chat.LiveReasoning:
		p := piece{kind: "text", text: r.Text}
		if r.What == chat.LiveReasoning {
			p.kind = "reasoning"
		}
		if r.raw != nil {
			p.from = len(f.written)
			f.written = append(f.written, r.raw...)
			p.to = len(f.written)
		}
		f.pieces = append(f.pieces, p)
	case chat.LiveCall:
		if call != nil || r.ID == "" {
			return
		}
		call = &liveCall{id: r.ID, name: r.Name}
		if f.byID == nil {
			f.byID = map[string]*liveCall{}
		}
		f.byID[r.ID] = call
		f.calls = append(f.calls, call)
		f.pieces = append(f.pieces, piece{kind: "call", call: len(f.calls) - 1, text: r.Args})
	case chat.LiveEnd:
		if r.End != nil {
			end := r.End.end()
			f.end = &end
		}
	case chat.LiveUsage:
		f.usage = r.Usage
	}
	if call == nil {
		return
	}
	switch r.What {
	case chat.LiveAsk:
		call.asked = true
	case chat.LiveAnswer:
		call.answered, call.denied = true, !r.Allow
	case chat.LiveRun:
		call.ran = true
	case chat.LiveResult:
		m := wire.Message{Role: "tool", ToolCallID: call.id, Name: call.name, Parts: wire.TextParts(r.Text)}
		if r.Call != nil {
			m.Ending = r.Call.ending()
		}
		call.result = &m
	}
}

// messages is the request as the engine would have committed it had it ended where its records
// stop: the reply so far, marked with how it ended (cut short by a crash unless a record says
// otherwise), and a result for every call it made — its own, or what became of it: a call that
// was running has an unknown outcome (it is never run again), one waiting for the user's answer
// is declined, one that never started was not run.
func (f *inFlight) messages() []wire.Message {
	reply := wire.Message{Role: "assistant", End: crashed}
	calls := 0
	for _, p := range f.pieces {
		text := p.text
		if p.to > p.from {
			text = writtenString(f.written[p.from:p.to])
		}
		part := loggedPart{Type: p.kind, Text: text}
		if p.kind == "call" {
			c := f.calls[p.call]
			part = loggedPart{Type: "call", ID: c.id, Name: c.name, Arguments: text}
		}
		calls = addPart(&reply, calls, part)
	}
	if f.end != nil {
		reply.End = *f.end
	}
	out := []wire.Message{reply}
	for _, c := range f.calls {
		out = append(out, c.outcome())
	}
	return out
}

// outcome is the call's result, or what became of it when it has none.
func (c *liveCall) outcome() wire.Message {
	if c.result != nil {
		return *c.result
	}
	var e phase.Ending
	switch {
	case c.ran:
		e = phase.Ending{Status: phase.CallInterrupted, Interruption: phase.Interruption{Why: phase.CutCrashed, Stage: phase.CallRunning}}
	case c.denied:
		e = phase.Ending{Status: phase.CallDeclined, NotRun: phase.NotRunDeclined}
	case c.asked:
		e = phase.Ending{Status: phase.CallDeclined, NotRun: phase.NotRunUnanswered}
	default:
		e = phase.Ending{Status: phase.CallInterrupted, Interruption: phase.Interruption{Why: phase.CutCrashed, Stage: phase.CallArgsReady}}
	}
	text := e.NotRun.Text()
	if e.NotRun == "" {
		text = e.Interruption.Text()
	}
	return wire.Message{Role: "tool", ToolCallID: c.id, Name: c.name, Parts: wire.TextParts(text), Ending: e}
}
