package sessionlog

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/phasechat/phasechat/stream/wire"
)

// recordLine is a record as a log line holds it. A message is written as its parts
// ({"role":…,"parts":[{"type":"text","text":…},{"type":"call","id":…},…]}) with how it ended
// beside it (End, Call); Ended and TextAfter are only read, from logs written before parts.
type recordLine struct {
	Type    string     `json:"type"`
	Time    *time.Time `json:"time,omitempty"`
	Session *Header    `json:"session,omitempty"`
	// End, on an assistant message, is how the reply ended when it was not whole.
	End *endRecord `json:"end,omitempty"`
	// Call, on a tool result, is how its call ended when it did not end done.
	Call *callRecord `json:"call,omitempty"`
	// Ended is how logs written before End said why a reply ended early, in words.
	Ended string `json:"ended,omitempty"`
	// TextAfter is how logs written before parts kept where each card stood (see oldOrder).
	TextAfter textAfter       `json:"text_after,omitempty"`
	Message   json.RawMessage `json:"message,omitempty"`
	Usage     *wire.Usage     `json:"usage,omitempty"`
	Live      *liveRecord     `json:"live,omitempty"`
	// Compaction is a compaction record's summary and the turns it stands for.
	Compaction *loggedCompaction `json:"compaction,omitempty"`
}

// loggedMessage is a message as a log line holds it: its parts in order.
type loggedMessage struct {
	Role  string        `json:"role"`
	Parts *[]loggedPart `json:"parts"` // nil: a message written before parts (the API's shape)
	// ReasoningField is where the provider sent the reasoning, and where it goes back.
	ReasoningField string                `json:"reasoning_field,omitempty"`
	ToolCallID     string                `json:"tool_call_id,omitempty"`
	Name           string                `json:"name,omitempty"`
	Native         *wire.NativeReasoning `json:"native_reasoning,omitempty"`
	// Attachments are a user message's files: their names, kinds and hashes, never their
	// bytes (the session store keeps those by hash).
	Attachments []wire.Attachment `json:"attachments,omitempty"`
}

// loggedPart is one of a message's parts: "text" and "reasoning" have Text; "call" has the rest.
type loggedPart struct {
	Type         string          `json:"type"`
	Text         string          `json:"text,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Arguments    string          `json:"arguments,omitempty"`
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

// addPart adds p, a part read from a log, to m, which has calls calls so far, and returns how
// many it has now: text and reasoning join a part of their kind just before them, a call takes
// the next index, and a part of a type no version writes (a log edited by hand) is left out.
// Every reader of parts adds them through it.
func addPart(m *wire.Message, calls int, p loggedPart) int {
	switch p.Type {
	case "text":
		m.AppendText(p.Text)
	case "reasoning":
		m.AppendReasoning(p.Text)
	case "call":
		m.Parts = append(m.Parts, wire.ToolCall{Index: calls, ID: p.ID, Name: p.Name, Arguments: p.Arguments, ExtraContent: p.ExtraContent})
		calls++
	}
	return calls
}

func (r Record) MarshalJSON() ([]byte, error) { return appendRecord(nil, r) }

func (r *Record) UnmarshalJSON(b []byte) error {
	var l recordLine
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*r = Record{Type: l.Type, Time: l.Time, Session: l.Session, Usage: l.Usage, Live: l.Live, Compaction: l.Compaction.compaction()}
	if len(l.Message) == 0 || bytes.Equal(l.Message, []byte("null")) {
		return nil
	}
	var lm loggedMessage
	if err := json.Unmarshal(l.Message, &lm); err != nil {
		return err
	}
	var m wire.Message
	if lm.Parts == nil { // the API's shape, and the places of its cards beside it
		if err := json.Unmarshal(l.Message, &m); err != nil {
			return err
		}
		m.Parts = oldOrder(m, l.TextAfter)
	} else {
		m = wire.Message{Role: lm.Role, ReasoningField: lm.ReasoningField, ToolCallID: lm.ToolCallID, Name: lm.Name, Native: lm.Native, Attachments: lm.Attachments}
		calls := 0
		for _, p := range *lm.Parts {
			calls = addPart(&m, calls, p)
		}
	}
	m.End, m.Ending = ends(m, l.End, l.Call, l.Ended, lm.Parts == nil)
	r.Message = &m
	return nil
}
