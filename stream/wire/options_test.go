package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Reasoning and extra_content go back, in the provider's field, for the current turn only.
func TestTurnStateGoesBackWithinTheTurn(t *testing.T) {
	sig := json.RawMessage(`{"google":{"thought_signature":"c2ln"}}`)
	req := Request{Model: "m", Messages: []Message{
		{Role: "user", Parts: TextParts("first")},
		{Role: "assistant", Parts: ReplyParts("old thought", "", []ToolCall{{ID: "a", Name: "now", Arguments: "{}", ExtraContent: sig}}), ReasoningField: FieldReasoningContent},
		{Role: "tool", ToolCallID: "a", Parts: TextParts("noon")},
		{Role: "assistant", Parts: TextParts("It is noon.")},
		{Role: "user", Parts: TextParts("second")},
		{Role: "assistant", Parts: ReplyParts("new thought", "", []ToolCall{{ID: "b", Name: "now", Arguments: "{}", ExtraContent: sig}}), ReasoningField: FieldReasoning},
		{Role: "tool", ToolCallID: "b", Parts: TextParts("one")},
		{Role: "assistant", Parts: ReplyParts("not the provider's", "", []ToolCall{{ID: "c", Name: "now", Arguments: "{}"}})},
		{Role: "tool", ToolCallID: "c", Parts: TextParts("two")},
	}}
	b, err := req.body(true, true, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Messages []map[string]any `json:"messages"`
	}
	json.Unmarshal(b, &got)
	m := got.Messages
	if _, ok := m[1]["reasoning_content"]; ok || strings.Contains(string(b), "old thought") {
		t.Errorf("an earlier turn's reasoning is sent: %s", b)
	}
	if call := m[1]["tool_calls"].([]any)[0].(map[string]any); call["extra_content"] != nil {
		t.Errorf("an earlier turn's extra_content is sent: %v", call)
	}
	if m[5]["reasoning"] != "new thought" || m[5]["reasoning_content"] != nil {
		t.Errorf("the current turn's reasoning goes back in its field: %v", m[5])
	}
	extra, _ := json.Marshal(m[5]["tool_calls"].([]any)[0].(map[string]any)["extra_content"])
	if string(extra) != string(sig) {
		t.Errorf("extra_content sent back as %s", extra)
	}
	if strings.Contains(string(b), "not the provider's") {
		t.Error("reasoning of no known field is sent")
	}
	if req.Messages[1].Reasoning() != "old thought" || req.Messages[1].Calls()[0].ExtraContent == nil {
		t.Error("building the body changed the history")
	}
}

// The session log keeps reasoning, its field and extra_content; reading it back restores them.
func TestMessageRoundTripKeepsTurnState(t *testing.T) {
	in := Message{Role: "assistant", Parts: ReplyParts("r", "c", []ToolCall{{ID: "a", Name: "now", Arguments: "{}", ExtraContent: json.RawMessage(`{"google":{"thought_signature":"x"}}`)}}), ReasoningField: FieldReasoning}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Message
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Reasoning() != "r" || out.ReasoningField != FieldReasoning || string(out.Calls()[0].ExtraContent) != `{"google":{"thought_signature":"x"}}` {
		t.Errorf("round trip: %s → %+v", b, out)
	}
}

// A stream records which field its reasoning came in and each call's extra_content.
func TestDecoderKeepsTurnState(t *testing.T) {
	d := NewDecoder()
	for _, f := range []string{
		`{"choices":[{"index":0,"delta":{"reasoning":"think"}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"now","arguments":""},"extra_content":{"google":{"thought_signature":"s"}}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
	} {
		d.Frame(Frame{Data: f})
	}
	d.End(nil)
	r := d.Result()
	if r.Message.ReasoningField != FieldReasoning || string(r.Message.Calls()[0].ExtraContent) != `{"google":{"thought_signature":"s"}}` {
		t.Errorf("result %+v", r.Message)
	}
}

func TestCutOffCallsFail(t *testing.T) {
	d := NewDecoder()
	var calls []string
	for _, f := range []string{
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"read_file","arguments":"{\"pa"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`,
		`[DONE]`,
	} {
		u := d.Frame(Frame{Data: f})
		for _, c := range u.Calls {
			calls = append(calls, fmt.Sprint(c.Type, ":", c.Why.Text()))
		}
	}
	if got := strings.Join(calls, ","); !strings.Contains(got, "not run: The reply was cut off: the model reached its output limit (finish_reason length).") ||
		strings.Contains(got, "ready") {
		t.Errorf("call events %s", got)
	}
	for reason, want := range map[string]string{"stop": "", "tool_calls": "", "": "", "content_filter": "content filter", "error": "reported an error"} {
		if got := CutOff(reason); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("CutOff(%q) = %q", reason, got)
		}
	}
}

// BenchmarkRequestBody encodes a 200-message history whose current turn carries reasoning and
// thought signatures and whose earlier turns lose theirs.
func BenchmarkRequestBody(b *testing.B) {
	var msgs []Message
	sig := json.RawMessage(`{"google":{"thought_signature":"c2lnbmF0dXJl"}}`)
	for i := range 50 {
		msgs = append(msgs,
			Message{Role: "user", Parts: TextParts("question " + fmt.Sprint(i))},
			Message{Role: "assistant", Parts: ReplyParts(strings.Repeat("thinking ", 40), "", []ToolCall{{ID: "c" + fmt.Sprint(i), Name: "read_file", Arguments: `{"path":"README.md"}`, ExtraContent: sig}}), ReasoningField: FieldReasoningContent},
			Message{Role: "tool", ToolCallID: "c" + fmt.Sprint(i), Parts: TextParts(strings.Repeat("result line\n", 20))},
			Message{Role: "assistant", Parts: TextParts(strings.Repeat("answer ", 30))})
	}
	req := Request{Model: "m", System: "be brief", Messages: msgs}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := req.body(true, true, true, &Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestProviderMessageInAnArray(t *testing.T) {
	body := `[{"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts.","status":"INVALID_ARGUMENT"}}]`
	if got := ProviderMessage([]byte(body)); got != "Function call is missing a thought_signature in functionCall parts." {
		t.Errorf("got %q", got)
	}
	if got := ProviderMessage([]byte(`[1, 2]`)); got != "" {
		t.Errorf("an array of numbers: %q", got)
	}
}
