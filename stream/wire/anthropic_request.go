package wire

import (
	"bytes"
	"encoding/json"
	"strings"
)

// AnthropicVersion is the anthropic-version header every Messages request sends.
const AnthropicVersion = "2023-06-01"

// DefaultAnthropicMaxTokens is max_tokens when the request names none: Messages requires one,
// and every Claude model accepts this many.
const DefaultAnthropicMaxTokens = 4096

type anthropicBlockOut map[string]any

type anthropicMessageOut struct {
	Role    string            `json:"role"`
	Content []json.RawMessage `json:"content"`
}

type anthropicToolOut struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// anthropicRequest is the Messages request for req. The system prompt (and any system message of
// the history) goes in "system"; a user message is a text block; an assistant message is its
// signed thinking blocks (only when it used tools: Messages requires them back on that turn),
// then its text and a tool_use block per call, in the order the reply streamed them; tool
// results are tool_result blocks of one user message. Consecutive messages of one role are
// merged, as Messages requires alternation.
// max_tokens is the options' (DefaultAnthropicMaxTokens when they name none); temperature is
// sent when set; reasoning_effort has no Messages equivalent and is not sent.
func anthropicRequest(req Request, stream bool, o *Options) ([]byte, error) {
	system := []string{}
	if req.System != "" {
		system = append(system, req.System)
	}
	var msgs []anthropicMessageOut
	add := func(role string, blocks ...json.RawMessage) {
		if len(blocks) == 0 {
			return
		}
		if n := len(msgs); n > 0 && msgs[n-1].Role == role {
			msgs[n-1].Content = append(msgs[n-1].Content, blocks...)
			return
		}
		msgs = append(msgs, anthropicMessageOut{Role: role, Content: blocks})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			if m.Text() != "" {
				system = append(system, m.Text())
			}
		case "user":
			add("user", anthropicUserBlocks(m)...)
		case "assistant":
			var blocks []json.RawMessage
			if n := m.Native; n != nil && n.Wire == WireAnthropic && len(m.Calls()) > 0 {
				blocks = append(blocks, n.Items...)
			}
			add("assistant", append(blocks, replyBlocks(m)...)...)
		case "tool":
			add("user", mustJSON(anthropicBlockOut{"type": "tool_result", "tool_use_id": m.ToolCallID, "content": m.Text()}))
		}
	}
	if len(msgs) > 0 && msgs[0].Role != "user" { // Messages starts with the user
		msgs = append([]anthropicMessageOut{{Role: "user", Content: textBlock("(continued)")}}, msgs...)
	}
	tools := make([]anthropicToolOut, 0, len(req.Tools))
	for _, t := range req.Tools {
		tools = append(tools, anthropicToolOut{Name: t.Name, Description: t.Description, InputSchema: objectSchema(t.Parameters)})
	}
	if o == nil {
		o = &Options{}
	}
	maxTokens := DefaultAnthropicMaxTokens
	if o.MaxTokens != nil && *o.MaxTokens > 0 {
		maxTokens = *o.MaxTokens
	}
	return json.Marshal(struct {
		Model       string                `json:"model"`
		MaxTokens   int                   `json:"max_tokens"`
		System      string                `json:"system,omitempty"`
		Messages    []anthropicMessageOut `json:"messages"`
		Tools       []anthropicToolOut    `json:"tools,omitempty"`
		Stream      bool                  `json:"stream"`
		Temperature *float64              `json:"temperature,omitempty"`
	}{req.Model, maxTokens, strings.Join(system, "\n\n"), nonNil(msgs), tools, stream, o.Temperature})
}

func nonNil(m []anthropicMessageOut) []anthropicMessageOut {
	if m == nil {
		return []anthropicMessageOut{}
	}
	return m
}

// replyBlocks is an assistant message's text and tool_use blocks in the order of its parts
// (reasoning goes back only as Native blocks). Text that is only white space is not sent
// alone but joined to the text after it, as Messages rejects a text block of white space.
func replyBlocks(m Message) []json.RawMessage {
	var blocks []json.RawMessage
	pending := "" // text not sent yet
	for _, p := range m.Parts {
		switch p := p.(type) {
		case Text:
			pending += p.Text
		case ToolCall:
			if strings.TrimSpace(pending) != "" {
				blocks, pending = append(blocks, textBlock(pending)...), ""
			}
			blocks = append(blocks, mustJSON(anthropicBlockOut{"type": "tool_use", "id": p.ID, "name": p.Name, "input": argumentsObject(p.Arguments)}))
		}
	}
	return append(blocks, textBlock(pending)...)
}

// textBlock is a text block, or none for empty text (Messages rejects empty text blocks).
func textBlock(s string) []json.RawMessage {
	if s == "" {
		return nil
	}
	return []json.RawMessage{mustJSON(anthropicBlockOut{"type": "text", "text": s})}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("stream: " + err.Error()) // only maps of strings and raw JSON are marshalled
	}
	return b
}

// argumentsObject is a call's arguments as the JSON object a tool_use input must be: blank or
// anything but an object (the call failed on them) sends {}.
func argumentsObject(args string) json.RawMessage {
	trimmed := bytes.TrimSpace([]byte(args))
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		return trimmed
	}
	return json.RawMessage(`{}`)
}

// objectSchema is a tool's parameters, or an empty object schema when it has none.
func objectSchema(params json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "{}" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return params
}
