package wire

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/phasechat/phasechat/phase"
)

// Message is one chat message: its Parts (text, reasoning and tool calls) in the order they
// streamed, so a reply shown again shows them in the same order. It marshals to the OpenAI
// request shape: content (its text) is null when it is empty and tool_calls are present;
// tool_calls are
// {"id","type":"function","function":{"name","arguments"}} plus the call's extra_content when
// it has one; a tool result carries tool_call_id; Reasoning is written in ReasoningField
// (nothing when that is empty). Unmarshal reads the same shape back (and a response message's
// reasoning_content or reasoning, and content given as blocks), so a session log keeps all
// of it. A request sends reasoning and extra_content only within the current turn (see
// Request).
type Message struct {
	Role  string // "system", "user", "assistant" or "tool"
	Parts []Part // only an assistant's has Reasoning or ToolCall parts
	// ReasoningField is the field the provider sent Reasoning in ("reasoning_content" or
	// "reasoning"), which is where it goes back; "" means it is never sent back.
	ReasoningField string
	ToolCallID     string // role "tool": the call this result answers
	Name           string // optional participant or tool name
	// Native is what the provider wants back verbatim in its own wire format (assistant
	// only): only a request in that format sends it; Chat Completions requests never do.
	Native *NativeReasoning
	// End, on an assistant message, is how the reply ended (the zero value: whole); Ending,
	// on a tool result, is how its call ended (the zero value: not known, read as done).
	// Display data the session log keeps: no request sends them.
	End    phase.End
	Ending phase.Ending
	// Attachments, on a user message, are the files sent after its text, in order.
	Attachments []Attachment
}

// NativeReasoning is an assistant reply's reasoning in its own wire format: Anthropic thinking
// and redacted_thinking blocks (with their signatures), or Responses reasoning items, each the
// JSON the provider sent, in the order it sent them; and, for Responses, each function call's
// item id (fc_...) by call id, which a reasoning item sent back must be followed by.
type NativeReasoning struct {
	Wire    Wire              `json:"wire"`
	Items   []json.RawMessage `json:"items,omitempty"`
	ItemIDs map[string]string `json:"item_ids,omitempty"`
}

// Reasoning fields a provider may send reasoning in, and expects it back in.
const (
	FieldReasoningContent = "reasoning_content" // DeepSeek, xAI, llama.cpp, vLLM
	FieldReasoning        = "reasoning"         // OpenRouter, Groq, Ollama
)

// ToolCall is one reassembled call. Index is its position on the wire (or, when the provider
// sent none, the order it appeared in); Arguments is the JSON text as sent. ExtraContent is
// the call's provider-specific extra_content (Gemini's thought signature), sent back
// unchanged; nil when there was none.
type ToolCall struct {
	Index        int
	ID           string
	Name         string
	Arguments    string
	ExtraContent json.RawMessage
}

// Usage is the token accounting the provider reported (the last report seen, never summed).
// PromptTokens count every input token, CachedTokens and CacheWriteTokens among them (those
// read from and written to the provider's prompt cache); CompletionTokens count every output
// token, ReasoningTokens among them. A count the format does not report is 0.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	CachedTokens     int `json:"cached_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
}

// Add sums the usage of separate requests (within one stream only the last report counts).
func (u Usage) Add(v Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens + v.PromptTokens, CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens: u.TotalTokens + v.TotalTokens, CachedTokens: u.CachedTokens + v.CachedTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens, ReasoningTokens: u.ReasoningTokens + v.ReasoningTokens}
}

// UserTurns is the number of user messages in h: the turns a conversation has had.
func UserTurns(h []Message) int {
	n := 0
	for _, m := range h {
		if m.Role == "user" {
			n++
		}
	}
	return n
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
	ID           string           `json:"id"`
	Type         string           `json:"type"`
	Function     jsonFunctionCall `json:"function"`
	ExtraContent json.RawMessage  `json:"extra_content,omitempty"`
}

type jsonMessage struct {
	Role             string           `json:"role"`
	Content          *string          `json:"content"`
	ReasoningContent string           `json:"reasoning_content,omitempty"`
	Reasoning        string           `json:"reasoning,omitempty"`
	ToolCalls        []jsonToolCall   `json:"tool_calls,omitempty"`
	ToolCallID       string           `json:"tool_call_id,omitempty"`
	Name             string           `json:"name,omitempty"`
	Native           *NativeReasoning `json:"native_reasoning,omitempty"`
	Attachments      []Attachment     `json:"attachments,omitempty"`
}

func (m Message) MarshalJSON() ([]byte, error) {
	out := jsonMessage{Role: m.Role, ToolCallID: m.ToolCallID, Name: m.Name, Native: m.Native, Attachments: m.Attachments}
	if text := m.Text(); text != "" || !m.HasCalls() {
		out.Content = &text
	}
	switch m.ReasoningField {
	case FieldReasoningContent:
		out.ReasoningContent = m.Reasoning()
	case FieldReasoning:
		out.Reasoning = m.Reasoning()
	}
	for _, tc := range m.Calls() {
		out.ToolCalls = append(out.ToolCalls, jsonToolCall{
			ID: tc.ID, Type: "function",
			Function:     jsonFunctionCall{Name: tc.Name, Arguments: tc.Arguments},
			ExtraContent: tc.ExtraContent,
		})
	}
	return json.Marshal(out)
}

// withoutTurnState is m as an earlier turn sends it: no reasoning, no extra_content.
func (m Message) withoutTurnState() Message {
	m.ReasoningField = ""
	if !slices.ContainsFunc(m.Parts, turnState) {
		return m
	}
	parts := make([]Part, 0, len(m.Parts))
	for _, p := range m.Parts {
		switch p := p.(type) {
		case Reasoning:
		case ToolCall:
			p.ExtraContent = nil
			parts = append(parts, p)
		default:
			parts = append(parts, p)
		}
	}
	m.Parts = parts
	return m
}

// turnState reports whether p is reasoning or a call with extra_content.
func turnState(p Part) bool {
	switch p := p.(type) {
	case Reasoning:
		return true
	case ToolCall:
		return p.ExtraContent != nil
	}
	return false
}

func (m *Message) UnmarshalJSON(b []byte) error {
	if fast, ok := DecodeMessage(b); ok {
		*m = fast
		return nil
	}
	return unmarshalMessage(b, m)
}

// unmarshalMessage is Message.UnmarshalJSON by encoding/json, for what DecodeMessage leaves.
func unmarshalMessage(b []byte, m *Message) error {
	var in struct {
		Role        string           `json:"role"`
		ToolCallID  string           `json:"tool_call_id"`
		Name        string           `json:"name"`
		Native      *NativeReasoning `json:"native_reasoning"`
		Attachments []Attachment     `json:"attachments"`
		wireDelta                    // content, reasoning, tool_calls
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*m = messageFromWire(&in.wireDelta)
	m.Role, m.ToolCallID, m.Name, m.Native = in.Role, in.ToolCallID, in.Name, in.Native
	m.Attachments = in.Attachments
	return nil
}

// messageFromWire builds a whole message (a stream:false answer, or history read back):
// content blocks split into content and reasoning, tool calls in index order (a call without
// an id gets call_<index>, as in a stream).
func messageFromWire(d *wireDelta) Message {
	var reasoning, text string // one piece each, mostly: += copies none
	for _, p := range d.Content.Parts {
		if p.Reasoning {
			reasoning += p.Text
		} else {
			text += p.Text
		}
	}
	reasoning += d.reasoning().S
	var toolCalls []ToolCall
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
		toolCalls = append(toolCalls, ToolCall{
			Index: index, ID: id, Name: tc.Function.Name.S, Arguments: tc.Function.Arguments.Text,
			ExtraContent: extraContent(tc.ExtraContent),
		})
	}
	sortByIndex(toolCalls)
	return Message{Parts: ReplyParts(reasoning, text, toolCalls), ReasoningField: d.reasoningField()}
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
