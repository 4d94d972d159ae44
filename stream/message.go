package stream

import (
	"encoding/json"
	"strconv"
)

// Message is one chat message. It marshals to the OpenAI request shape: content is null when
// it is empty and tool_calls are present; Reasoning is never sent; tool_calls are
// {"id","type":"function","function":{"name","arguments"}}; a tool result carries
// tool_call_id. Unmarshal reads the same shape back (and a response message's
// reasoning_content or reasoning, and content given as blocks).
type Message struct {
	Role       string // "system", "user", "assistant" or "tool"
	Content    string
	Reasoning  string // assistant only; shown apart, never sent back
	ToolCalls  []ToolCall
	ToolCallID string // role "tool": the call this result answers
	Name       string // optional participant or tool name
}

// ToolCall is one reassembled call. Index is its position on the wire (or, when the provider
// sent none, the order it appeared in); Arguments is the JSON text as sent.
type ToolCall struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// Usage is the token accounting the provider reported (the last report seen, never summed).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Tool is a function the model may call. Parameters is a JSON Schema object (nil sends {}).
// It marshals to {"type":"function","function":{"name","description","parameters"}}.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

type jsonFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type jsonToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function jsonFunctionCall `json:"function"`
}

type jsonMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	ToolCalls  []jsonToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Name       string         `json:"name,omitempty"`
}

func (m Message) MarshalJSON() ([]byte, error) {
	out := jsonMessage{Role: m.Role, ToolCallID: m.ToolCallID, Name: m.Name}
	if m.Content != "" || len(m.ToolCalls) == 0 {
		out.Content = &m.Content
	}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, jsonToolCall{
			ID: tc.ID, Type: "function",
			Function: jsonFunctionCall{Name: tc.Name, Arguments: tc.Arguments},
		})
	}
	return json.Marshal(out)
}

func (m *Message) UnmarshalJSON(b []byte) error {
	var in struct {
		Role       string `json:"role"`
		ToolCallID string `json:"tool_call_id"`
		Name       string `json:"name"`
		wireDelta         // content, reasoning, tool_calls
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*m = messageFromWire(&in.wireDelta)
	m.Role, m.ToolCallID, m.Name = in.Role, in.ToolCallID, in.Name
	return nil
}

// messageFromWire builds a whole message (a stream:false answer, or history read back):
// content blocks split into content and reasoning, tool calls in index order (a call without
// an id gets call_<index>, as in a stream).
func messageFromWire(d *wireDelta) Message {
	var m Message
	for _, p := range d.Content.Parts {
		if p.Reasoning {
			m.Reasoning += p.Text
		} else {
			m.Content += p.Text
		}
	}
	m.Reasoning += d.reasoning().S
	calls := d.ToolCalls
	if f, ok := d.legacyCall(); ok && len(calls) == 0 {
		calls = []wireToolCall{f}
	}
	for i, tc := range calls {
		index := i
		if tc.Index.Set && tc.Index.N >= 0 {
			index = tc.Index.N
		}
		id := tc.ID.S
		if id == "" {
			id = "call_" + strconv.Itoa(index)
		}
		m.ToolCalls = append(m.ToolCalls, ToolCall{
			Index: index, ID: id, Name: tc.Function.Name.S, Arguments: tc.Function.Arguments.Text,
		})
	}
	sortByIndex(m.ToolCalls)
	return m
}

func (t Tool) MarshalJSON() ([]byte, error) {
	params := t.Parameters
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	return json.Marshal(struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}{"function", function{t.Name, t.Description, params}})
}
