package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// toolLoop is a history in the middle of a tool loop: the assistant's reply carries the
// reasoning its format wants back.
func toolLoop(native *NativeReasoning) []Message {
	return []Message{
		{Role: "user", Parts: TextParts("Weather in Rome?")},
		{Role: "assistant", Parts: ReplyParts("", "Checking.", []ToolCall{
			{Index: 0, ID: "c1", Name: "weather", Arguments: `{"city":"Rome"}`},
			{Index: 1, ID: "c2", Name: "time", Arguments: ``},
		}), Native: native},
		{Role: "tool", ToolCallID: "c1", Name: "weather", Parts: TextParts("sunny")},
		{Role: "tool", ToolCallID: "c2", Name: "time", Parts: TextParts("noon")},
	}
}

var loopTools = []Tool{{Name: "weather", Description: "Weather for a city", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}, {Name: "time"}}

// compactJSON re-encodes s without insignificant space.
func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestAnthropicRequest(t *testing.T) {
	native := &NativeReasoning{Wire: WireAnthropic, Items: []json.RawMessage{json.RawMessage(`{"signature":"sig","thinking":"hm","type":"thinking"}`)}}
	req := Request{Model: "claude", System: "Be brief.", Messages: toolLoop(native), Tools: loopTools}
	body, err := anthropicRequest(req, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"max_tokens":4096,"messages":[` +
		`{"content":[{"text":"Weather in Rome?","type":"text"}],"role":"user"},` +
		`{"content":[{"signature":"sig","thinking":"hm","type":"thinking"},{"text":"Checking.","type":"text"},` +
		`{"id":"c1","input":{"city":"Rome"},"name":"weather","type":"tool_use"},{"id":"c2","input":{},"name":"time","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"content":"sunny","tool_use_id":"c1","type":"tool_result"},{"content":"noon","tool_use_id":"c2","type":"tool_result"}],"role":"user"}],` +
		`"model":"claude","stream":true,"system":"Be brief.",` +
		`"tools":[{"description":"Weather for a city","input_schema":{"properties":{"city":{"type":"string"}},"type":"object"},"name":"weather"},` +
		`{"input_schema":{"properties":{},"type":"object"},"name":"time"}]}`
	if got := compactJSON(t, string(body)); got != compactJSON(t, want) {
		t.Errorf("body\n%s\nwant\n%s", got, compactJSON(t, want))
	}

	// Another format's reasoning is never sent; nor is reasoning of a reply without tools.
	req.Messages = toolLoop(&NativeReasoning{Wire: WireResponses, Items: []json.RawMessage{json.RawMessage(`{"type":"reasoning"}`)}})
	req.Messages = append(req.Messages, Message{Role: "assistant", Parts: TextParts("Sunny."), Native: native}, Message{Role: "user", Parts: TextParts("Thanks")})
	limit := 100
	body, _ = anthropicRequest(req, false, &Options{MaxTokens: &limit})
	if s := string(body); strings.Contains(s, "reasoning") || strings.Contains(s, `"thinking"`) || !strings.Contains(s, `"max_tokens":100`) || !strings.Contains(s, `"stream":false`) {
		t.Errorf("body %s", s)
	}
}

func TestResponsesRequest(t *testing.T) {
	item := `{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"e"}`
	native := &NativeReasoning{Wire: WireResponses, Items: []json.RawMessage{json.RawMessage(item)}, ItemIDs: map[string]string{"c1": "fc_1"}}
	req := Request{Model: "gpt", System: "Be brief.", Messages: toolLoop(native), Tools: loopTools}
	body, err := responsesRequest(req, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"input":[{"content":"Weather in Rome?","role":"user","type":"message"},` + item + `,` +
		`{"content":"Checking.","role":"assistant","type":"message"},` +
		`{"arguments":"{\"city\":\"Rome\"}","call_id":"c1","id":"fc_1","name":"weather","type":"function_call"},` +
		`{"arguments":"","call_id":"c2","name":"time","type":"function_call"},` +
		`{"call_id":"c1","output":"sunny","type":"function_call_output"},{"call_id":"c2","output":"noon","type":"function_call_output"}],` +
		`"instructions":"Be brief.","model":"gpt","stream":true,` +
		`"tools":[{"description":"Weather for a city","name":"weather","parameters":{"properties":{"city":{"type":"string"}},"type":"object"},"strict":false,"type":"function"},` +
		`{"name":"time","parameters":{"properties":{},"type":"object"},"strict":false,"type":"function"}]}`
	if got := compactJSON(t, string(body)); got != compactJSON(t, want) {
		t.Errorf("body\n%s\nwant\n%s", got, compactJSON(t, want))
	}
	if strings.Contains(string(body), "previous_response_id") {
		t.Error("the request must be stateless")
	}
}

func TestChatRequestSendsNoNativeReasoning(t *testing.T) {
	req := Request{Model: "m", Messages: toolLoop(&NativeReasoning{Wire: WireAnthropic, Items: []json.RawMessage{json.RawMessage(`{"type":"thinking"}`)}})}
	body, _ := req.body(true, true, true, nil)
	if strings.Contains(string(body), "native") || strings.Contains(string(body), "thinking") {
		t.Errorf("body %s", body)
	}
	// The session log keeps it, and reads it back.
	b, _ := json.Marshal(req.Messages[1])
	var back Message
	if err := json.Unmarshal(b, &back); err != nil || back.Native == nil || back.Native.Wire != WireAnthropic || len(back.Native.Items) != 1 {
		t.Errorf("round trip %s: %+v %v", b, back.Native, err)
	}
}
