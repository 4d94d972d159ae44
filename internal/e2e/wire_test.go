package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// wireRequest is a chat completions request as the server received it, read independently
// of package stream so that the wire shape itself is checked.
type wireRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Messages []wireMessage     `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
	Raw      []byte            `json:"-"`
}

type wireMessage struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCallID string     `json:"tool_call_id"`
	ToolCalls  []wireCall `json:"tool_calls"`
}

type wireCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func (m wireMessage) text() string {
	if m.Content == nil {
		return ""
	}
	return *m.Content
}

// validate checks what an OpenAI-compatible server requires of a conversation: an optional
// leading system message, then a user message; only user, assistant and tool roles after it;
// every assistant message with tool calls followed at once by exactly one tool message per
// call, in call order; no other tool messages; every assistant message with content or calls,
// every call with an id, a name and arguments that are JSON; the last message from the user or
// a tool.
func validate(req wireRequest) error {
	msgs := req.Messages
	if len(msgs) > 0 && msgs[0].Role == "system" {
		msgs = msgs[1:]
	}
	if len(msgs) == 0 {
		return fmt.Errorf("no messages")
	}
	if msgs[0].Role != "user" {
		return fmt.Errorf("message 0 has role %q; the conversation must start with the user", msgs[0].Role)
	}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case "user":
		case "assistant":
			if m.text() == "" && len(m.ToolCalls) == 0 {
				return fmt.Errorf("message %d: an assistant message with neither content nor tool calls", i)
			}
			for j, call := range m.ToolCalls {
				if call.ID == "" || call.Type != "function" || call.Function.Name == "" || !json.Valid([]byte(orEmptyObject(call.Function.Arguments))) {
					return fmt.Errorf("message %d call %d is malformed: %+v", i, j, call)
				}
				k := i + 1 + j
				if k >= len(msgs) || msgs[k].Role != "tool" || msgs[k].ToolCallID != call.ID {
					return fmt.Errorf("message %d: call %s (%s) is not answered by a tool message at %d", i, call.ID, call.Function.Name, k)
				}
			}
			i += len(m.ToolCalls)
		case "tool":
			return fmt.Errorf("message %d: a tool message (for %q) that answers no call just before it", i, m.ToolCallID)
		default:
			return fmt.Errorf("message %d has role %q", i, m.Role)
		}
	}
	if last := msgs[len(msgs)-1].Role; last != "user" && last != "tool" {
		return fmt.Errorf("the last message has role %q; the model must be asked something", last)
	}
	return nil
}

func orEmptyObject(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{}"
	}
	return s
}

// mustValidate fails the test when req is not a valid conversation.
func mustValidate(t *testing.T, req wireRequest) {
	t.Helper()
	if err := validate(req); err != nil {
		t.Fatalf("invalid request: %v\n%s", err, req.Raw)
	}
}

// toolMessages returns the tool messages of req, in order.
func toolMessages(req wireRequest) []wireMessage {
	var out []wireMessage
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out = append(out, m)
		}
	}
	return out
}

// The validator itself must reject what it is there to catch.
func TestValidateRejectsBrokenHistories(t *testing.T) {
	s := func(v string) *string { return &v }
	call := func(id string) wireCall {
		c := wireCall{ID: id, Type: "function"}
		c.Function.Name, c.Function.Arguments = "now", "{}"
		return c
	}
	user := wireMessage{Role: "user", Content: s("hi")}
	asst := wireMessage{Role: "assistant", ToolCalls: []wireCall{call("a"), call("b")}}
	tool := func(id string) wireMessage { return wireMessage{Role: "tool", ToolCallID: id, Content: s("ok")} }
	tests := []struct {
		name string
		msgs []wireMessage
		ok   bool
	}{
		{"valid", []wireMessage{user, asst, tool("a"), tool("b"), user}, true},
		{"valid ending in tools", []wireMessage{{Role: "system", Content: s("x")}, user, asst, tool("a"), tool("b")}, true},
		{"unanswered call", []wireMessage{user, asst, tool("a"), user}, false},
		{"answers out of order", []wireMessage{user, asst, tool("b"), tool("a"), user}, false},
		{"stray tool message", []wireMessage{user, tool("a")}, false},
		{"extra tool message", []wireMessage{user, asst, tool("a"), tool("b"), tool("b")}, false},
		{"starts with assistant", []wireMessage{{Role: "assistant", Content: s("x")}, user}, false},
		{"empty assistant", []wireMessage{user, {Role: "assistant"}, user}, false},
		{"ends with assistant", []wireMessage{user, {Role: "assistant", Content: s("x")}}, false},
	}
	for _, tt := range tests {
		err := validate(wireRequest{Messages: tt.msgs})
		if (err == nil) != tt.ok {
			t.Errorf("%s: validate = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
