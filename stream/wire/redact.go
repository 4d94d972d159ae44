package wire

import (
	"encoding/json"
	"slices"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/phase"
)

// RedactError returns e with the secrets hidden from its message and its cause's text.
func RedactError(set *secret.Set, e *Error) *Error {
	if e == nil || set.Empty() {
		return e
	}
	out := *e
	out.Message = set.Redact(e.Message)
	out.Detail = set.Redact(e.Detail)
	out.Cause = set.Error(e.Cause)
	return &out
}

// RedactMessage hides the secrets in every text of a message. Each part is redacted alone,
// so the parts keep their order; when a secret spans two text parts (a card stood inside it)
// the text is redacted whole instead and put before the calls, rather than show a card inside
// a secret.
func RedactMessage(set *secret.Set, m Message) Message {
	if set.Empty() {
		return m
	}
	m.Name = set.Redact(m.Name)
	m.Native = redactNative(set, m.Native)
	if len(m.Parts) == 0 {
		return m
	}
	parts := make([]Part, len(m.Parts))
	for i, p := range m.Parts {
		switch p := p.(type) {
		case Text:
			parts[i] = Text{set.Redact(p.Text)}
		case Reasoning:
			parts[i] = Reasoning{set.Redact(p.Text)}
		case ToolCall:
			p.ID, p.Name, p.Arguments = set.Redact(p.ID), set.Redact(p.Name), set.Redact(p.Arguments)
			parts[i] = p
		}
	}
	whole := Message{Parts: parts}
	if text := set.Redact(m.Text()); text != whole.Text() {
		whole.Parts = ReplyParts(whole.Reasoning(), text, whole.Calls())
	}
	m.Parts = whole.Parts
	return m
}

// UpdateRedactor hides the secrets in a stream's updates. Text, reasoning and each call's
// arguments are redacted as the streams they are, so a secret split across two deltas is
// still hidden: a tail that may be the start of one is held back until the next delta shows
// it is not, and passed on at the latest when the call is ready or the stream ends.
type UpdateRedactor struct {
	set             *secret.Set
	text, reasoning *secret.Stream
	args            map[string]*secret.Stream
	argsOrder       []string
}

// NewUpdateRedactor hides set's secrets in one stream's updates.
func NewUpdateRedactor(set *secret.Set) *UpdateRedactor {
	return &UpdateRedactor{set: set, text: set.Stream(), reasoning: set.Stream(), args: map[string]*secret.Stream{}}
}

// Update returns u with the secrets hidden; last says u is the end-of-stream update, which
// then also carries everything held back.
func (r *UpdateRedactor) Update(u Update, last bool) Update {
	if r.set.Empty() {
		return u
	}
	u.Frame.Data = r.set.Redact(u.Frame.Data)
	u.Err = RedactError(r.set, u.Err)
	events := make([]phase.Event, 0, len(u.Events)+2)
	flushed := false
	flushText := func() {
		if flushed {
			return
		}
		flushed = true
		if t := r.text.Flush(); t != "" {
			events = append(events, phase.Event{Kind: phase.KindText, Delta: t})
		}
		if t := r.reasoning.Flush(); t != "" {
			events = append(events, phase.Event{Kind: phase.KindReasoning, Delta: t})
		}
	}
	for _, ev := range u.Events {
		switch ev.Kind {
		case phase.KindText:
			ev.Delta = r.text.Write(ev.Delta)
		case phase.KindReasoning:
			ev.Delta = r.reasoning.Write(ev.Delta)
		case phase.KindError, phase.KindDone:
			flushText() // what arrived before the end is shown before it
			ev.Error = r.set.Redact(ev.Error)
		default:
			ev.Delta, ev.Tool, ev.Error = r.set.Redact(ev.Delta), r.set.Redact(ev.Tool), r.set.Redact(ev.Error)
		}
		events = append(events, ev)
	}
	if last {
		flushText()
	}
	u.Events = events

	calls := make([]phase.CallEvent, 0, len(u.Calls)+1)
	for _, ev := range u.Calls {
		ev.Name = r.set.Redact(ev.Name)
		if ev.Type != phase.CallDelta {
			ev.ArgsTextDelta = r.set.Redact(ev.ArgsTextDelta)
		}
		switch ev.Type {
		case phase.CallDelta:
			ev.ArgsTextDelta = r.argsOf(ev.ID).Write(ev.ArgsTextDelta)
		case phase.CallReady, phase.CallInterrupt:
			calls = r.flushCall(calls, ev.ID)
			ev.Why.Detail = r.set.Redact(ev.Why.Detail)
		}
		calls = append(calls, ev)
	}
	if last {
		for _, id := range r.argsOrder {
			calls = r.flushCall(calls, id)
		}
	}
	u.Calls = calls
	return u
}

func (r *UpdateRedactor) argsOf(id string) *secret.Stream {
	s, ok := r.args[id]
	if !ok {
		s = r.set.Stream()
		r.args[id] = s
		r.argsOrder = append(r.argsOrder, id)
	}
	return s
}

// flushCall appends a delta with what was held back of call id's arguments, if anything.
func (r *UpdateRedactor) flushCall(calls []phase.CallEvent, id string) []phase.CallEvent {
	s, ok := r.args[id]
	if !ok || !s.Pending() {
		return calls
	}
	return append(calls, phase.CallEvent{Type: phase.CallDelta, ID: id, ArgsTextDelta: s.Flush()})
}

// opaqueFields are the fields of native reasoning a provider checks byte for byte and no one
// reads: Anthropic's signatures and redacted_thinking data, Responses' encrypted_content.
var opaqueFields = map[string]bool{"signature": true, "data": true, "encrypted_content": true}

// redactNative hides the secrets in the readable text of native reasoning (a thinking block's
// thinking, a reasoning item's summary and content texts): an item holding none is kept byte
// for byte. A redacted Anthropic thinking block no longer matches its signature
// (docs/architecture.md, Safety, says what that means when it is sent back).
func redactNative(set *secret.Set, n *NativeReasoning) *NativeReasoning {
	if n == nil {
		return nil
	}
	var items []json.RawMessage
	for i, item := range n.Items {
		if !set.Contains(string(item)) {
			continue
		}
		if items == nil {
			items = slices.Clone(n.Items)
		}
		var v any
		if err := json.Unmarshal(item, &v); err != nil {
			items[i] = redactedWhole(set, item)
			continue
		}
		b, err := json.Marshal(redactStrings(set, v, ""))
		if err != nil {
			b = redactedWhole(set, item)
		}
		items[i] = b
	}
	if items == nil {
		return n
	}
	out := *n
	out.Items = items
	return &out
}

// redactedWhole is an item that is not JSON, redacted as text and kept as a JSON string.
func redactedWhole(set *secret.Set, item []byte) json.RawMessage {
	b, _ := json.Marshal(set.Redact(string(item)))
	return b
}

// redactStrings redacts every string of a decoded JSON value but those of opaqueFields; key is
// the field v is the value of.
func redactStrings(set *secret.Set, v any, key string) any {
	switch x := v.(type) {
	case string:
		if opaqueFields[key] {
			return x
		}
		return set.Redact(x)
	case map[string]any:
		for k, e := range x {
			x[k] = redactStrings(set, e, k)
		}
	case []any:
		for i, e := range x {
			x[i] = redactStrings(set, e, key)
		}
	}
	return v
}
