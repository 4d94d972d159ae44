package wire

import (
	"encoding/json"
	"strings"
)

type responsesToolOut struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// responsesRequest is the Responses request for req, stateless: the whole history goes in
// "input" every time (no previous_response_id), so Retry, Esc and resume work as on Chat
// Completions. The system prompt is "instructions"; an assistant message that used tools is
// preceded by its reasoning items, sent back verbatim, and its calls are function_call items
// (with their own item ids when known); a tool result is a function_call_output item.
// Tools are sent with strict false: their schemas are not written for strict mode. The
// options' max_tokens is max_output_tokens and reasoning_effort is reasoning.effort.
func responsesRequest(req Request, stream bool, o *Options) ([]byte, error) {
	instructions := []string{}
	if req.System != "" {
		instructions = append(instructions, req.System)
	}
	input := make([]json.RawMessage, 0, len(req.Messages))
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			if m.Text() != "" {
				instructions = append(instructions, m.Text())
			}
		case "user":
			input = append(input, mustJSON(map[string]any{"type": "message", "role": "user", "content": responsesUserContent(m)}))
		case "assistant":
			var ids map[string]string
			if n := m.Native; n != nil && n.Wire == WireResponses {
				ids = n.ItemIDs
				if len(m.Calls()) > 0 {
					input = append(input, n.Items...)
				}
			}
			if m.Text() != "" {
				input = append(input, mustJSON(map[string]string{"type": "message", "role": "assistant", "content": m.Text()}))
			}
			for _, tc := range m.Calls() {
				item := map[string]string{"type": "function_call", "call_id": tc.ID, "name": tc.Name, "arguments": tc.Arguments}
				if id := ids[tc.ID]; id != "" {
					item["id"] = id
				}
				input = append(input, mustJSON(item))
			}
		case "tool":
			input = append(input, mustJSON(map[string]string{"type": "function_call_output", "call_id": m.ToolCallID, "output": m.Text()}))
		}
	}
	tools := make([]responsesToolOut, 0, len(req.Tools))
	for _, t := range req.Tools {
		tools = append(tools, responsesToolOut{Type: "function", Name: t.Name, Description: t.Description, Parameters: objectSchema(t.Parameters)})
	}
	if o == nil {
		o = &Options{}
	}
	type reasoning struct {
		Effort string `json:"effort"`
	}
	var effort *reasoning
	if o.ReasoningEffort != "" {
		effort = &reasoning{o.ReasoningEffort}
	}
	return json.Marshal(struct {
		Model           string             `json:"model"`
		Instructions    string             `json:"instructions,omitempty"`
		Input           []json.RawMessage  `json:"input"`
		Tools           []responsesToolOut `json:"tools,omitempty"`
		Stream          bool               `json:"stream"`
		MaxOutputTokens *int               `json:"max_output_tokens,omitempty"`
		Temperature     *float64           `json:"temperature,omitempty"`
		Reasoning       *reasoning         `json:"reasoning,omitempty"`
	}{req.Model, strings.Join(instructions, "\n\n"), input, tools, stream, o.MaxTokens, o.Temperature, effort})
}
