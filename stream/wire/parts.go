package wire

import "strings"

// Part is one piece of a message, kept in the order it streamed: Text, Reasoning or a
// ToolCall. The set is closed: only this package's types are parts.
type Part interface{ isPart() }

// Text is a run of a message's text.
type Text struct{ Text string }

// Reasoning is a run of an assistant's reasoning, shown apart from its text.
type Reasoning struct{ Text string }

func (Text) isPart()      {}
func (Reasoning) isPart() {}
func (ToolCall) isPart()  {}

// TextParts is the parts of a message that is only text: none for "".
func TextParts(text string) []Part {
	if text == "" {
		return nil
	}
	return []Part{Text{text}}
}

// ReplyParts is the parts of a reply whose order is not known: its reasoning, then its text,
// then its calls; empty pieces are left out.
func ReplyParts(reasoning, text string, calls []ToolCall) []Part {
	var parts []Part
	if reasoning != "" {
		parts = append(parts, Reasoning{reasoning})
	}
	if text != "" {
		parts = append(parts, Text{text})
	}
	for _, c := range calls {
		parts = append(parts, c)
	}
	return parts
}

// Text is the message's text: its Text parts joined.
func (m Message) Text() string { return join[Text](m.Parts, func(t Text) string { return t.Text }) }

// Reasoning is the message's reasoning: its Reasoning parts joined.
func (m Message) Reasoning() string {
	return join[Reasoning](m.Parts, func(r Reasoning) string { return r.Text })
}

// Calls are the message's tool calls in order (a new slice; nil when there is none).
func (m Message) Calls() []ToolCall {
	var calls []ToolCall
	for _, p := range m.Parts {
		if c, ok := p.(ToolCall); ok {
			calls = append(calls, c)
		}
	}
	return calls
}

// HasCalls reports whether the message has a tool call.
func (m Message) HasCalls() bool {
	for _, p := range m.Parts {
		if _, ok := p.(ToolCall); ok {
			return true
		}
	}
	return false
}

// AppendText adds text at the end of the message: to its last part when that is text, else
// as a new part. Empty text adds nothing.
func (m *Message) AppendText(text string) {
	if text == "" {
		return
	}
	if n := len(m.Parts); n > 0 {
		if last, ok := m.Parts[n-1].(Text); ok {
			m.Parts[n-1] = Text{last.Text + text}
			return
		}
	}
	m.Parts = append(m.Parts, Text{text})
}

// AppendReasoning adds reasoning at the end of the message, as AppendText adds text.
func (m *Message) AppendReasoning(text string) {
	if text == "" {
		return
	}
	if n := len(m.Parts); n > 0 {
		if last, ok := m.Parts[n-1].(Reasoning); ok {
			m.Parts[n-1] = Reasoning{last.Text + text}
			return
		}
	}
	m.Parts = append(m.Parts, Reasoning{text})
}

// SetCalls replaces the message's tool calls, in order, by calls (as many as Calls has),
// keeping where each stands among the other parts. The parts are copied first, so a message
// sharing them is not changed.
func (m *Message) SetCalls(calls []ToolCall) {
	parts := make([]Part, len(m.Parts))
	n := 0
	for i, p := range m.Parts {
		if _, ok := p.(ToolCall); ok && n < len(calls) {
			p, n = calls[n], n+1
		}
		parts[i] = p
	}
	m.Parts = parts
}

// join joins the parts of type P, each read by text.
func join[P Part](parts []Part, text func(P) string) string {
	var one string
	var b strings.Builder
	n := 0
	for _, p := range parts {
		if q, ok := p.(P); ok {
			if n++; n == 1 {
				one = text(q)
				continue
			}
			if n == 2 {
				b.WriteString(one)
			}
			b.WriteString(text(q))
		}
	}
	if n <= 1 {
		return one
	}
	return b.String()
}
