package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// recorded keeps every request body and header a test server got.
type recorded struct {
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
}

func (r *recorded) add(req *http.Request) {
	var body map[string]any
	json.NewDecoder(req.Body).Decode(&body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bodies = append(r.bodies, body)
	r.headers = append(r.headers, req.Header.Clone())
}

func (r *recorded) body(i int) map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bodies[i]
}

const doneBody = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"

func TestRequestOptionsHeadersAndExtraBody(t *testing.T) {
	var rec recorded
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		rec.add(r)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, doneBody)
	})
	maxTokens, temp := 256, 0.25
	c.Headers = map[string]string{"X-Title": "phasechat", "Authorization": "Bearer overridden"}
	c.Options = Options{MaxTokens: &maxTokens, Temperature: &temp, ReasoningEffort: "low",
		ExtraBody: map[string]any{"top_k": 5, "options": map[string]any{"num_ctx": 8192}, "model": "not-this", "max_tokens": 1}}
	s := c.Stream(context.Background(), Request{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}})
	drain(s)
	s.Close()
	b := rec.body(0)
	if b["model"] != "m" || b["max_tokens"] != 256.0 || b["temperature"] != 0.25 || b["reasoning_effort"] != "low" ||
		b["top_k"] != 5.0 || b["options"].(map[string]any)["num_ctx"] != 8192.0 {
		t.Errorf("body = %v", b)
	}
	h := rec.headers[0]
	if h.Get("X-Title") != "phasechat" || h.Get("Authorization") != "Bearer sk-test-key-1234" {
		t.Errorf("headers = %v (the key wins over a header of the same name)", h)
	}
}

// With stream_options "auto", a 400 or 422 naming stream_options is sent once more without it;
// the client never sends it again and says so once. Other errors are not retried.
func TestStreamOptionsFallback(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		body    string
		retried bool
	}{
		{"mistral 422", 422, `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]}}`, true},
		{"azure 400", 400, `{"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error"}}`, true},
		{"another 400", 400, `{"error":{"message":"max_tokens is too large","type":"invalid_request_error"}}`, false},
		{"a 500 naming it", 500, `{"error":{"message":"stream_options broke us"}}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorded
			c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				rec.add(r)
				if _, has := rec.body(len(rec.bodies) - 1)["stream_options"]; has {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(tc.status)
					io.WriteString(w, tc.body)
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, doneBody)
			})
			req := Request{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}}
			s := c.Stream(context.Background(), req)
			drain(s)
			r := s.Result()
			if tc.retried != (r.Outcome == OutcomeComplete) || tc.retried != (r.Notice == NoticeStreamOptions) {
				t.Fatalf("outcome %s, notice %q, err %v", r.Outcome, r.Notice, r.Err)
			}
			if !tc.retried {
				if len(rec.bodies) != 1 || !strings.Contains(r.Err.Message, "HTTP") {
					t.Errorf("%d requests, error %v", len(rec.bodies), r.Err)
				}
				return
			}
			s = c.Stream(context.Background(), req)
			drain(s)
			if r := s.Result(); r.Outcome != OutcomeComplete || r.Notice != "" {
				t.Errorf("second stream: %s, notice %q (it is said once)", r.Outcome, r.Notice)
			}
			if len(rec.bodies) != 3 {
				t.Fatalf("%d requests, want 3", len(rec.bodies))
			}
			if _, has := rec.body(2)["stream_options"]; has {
				t.Error("the client sent stream_options again after the server rejected it")
			}
		})
	}
}

func TestStreamOptionsModes(t *testing.T) {
	var rec recorded
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		rec.add(r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(422)
		io.WriteString(w, `{"detail":"stream_options is not allowed"}`)
	})
	req := Request{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}}
	for _, mode := range []StreamOptionsMode{StreamOptionsNever, StreamOptionsAlways} {
		before := len(rec.bodies)
		c.Options.StreamOptions = mode
		s := c.Stream(context.Background(), req)
		drain(s)
		s.Close()
		if n := len(rec.bodies) - before; n != 1 {
			t.Errorf("mode %d: %d requests, want 1 (no retry)", mode, n)
		}
		_, has := rec.body(len(rec.bodies) - 1)["stream_options"]
		if has != (mode == StreamOptionsAlways) {
			t.Errorf("mode %d: stream_options sent %v", mode, has)
		}
	}
}

// Reasoning and extra_content go back, in the provider's field, for the current turn only.
func TestTurnStateGoesBackWithinTheTurn(t *testing.T) {
	sig := json.RawMessage(`{"google":{"thought_signature":"c2ln"}}`)
	req := Request{Model: "m", Messages: []Message{
		{Role: "user", Content: "first"},
		{Role: "assistant", Reasoning: "old thought", ReasoningField: FieldReasoningContent,
			ToolCalls: []ToolCall{{ID: "a", Name: "now", Arguments: "{}", ExtraContent: sig}}},
		{Role: "tool", ToolCallID: "a", Content: "noon"},
		{Role: "assistant", Content: "It is noon."},
		{Role: "user", Content: "second"},
		{Role: "assistant", Reasoning: "new thought", ReasoningField: FieldReasoning,
			ToolCalls: []ToolCall{{ID: "b", Name: "now", Arguments: "{}", ExtraContent: sig}}},
		{Role: "tool", ToolCallID: "b", Content: "one"},
		{Role: "assistant", Reasoning: "not the provider's", ToolCalls: []ToolCall{{ID: "c", Name: "now", Arguments: "{}"}}},
		{Role: "tool", ToolCallID: "c", Content: "two"},
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
	if req.Messages[1].Reasoning != "old thought" || req.Messages[1].ToolCalls[0].ExtraContent == nil {
		t.Error("building the body changed the history")
	}
}

// The session log keeps reasoning, its field and extra_content; reading it back restores them.
func TestMessageRoundTripKeepsTurnState(t *testing.T) {
	in := Message{Role: "assistant", Content: "c", Reasoning: "r", ReasoningField: FieldReasoning,
		ToolCalls: []ToolCall{{ID: "a", Name: "now", Arguments: "{}", ExtraContent: json.RawMessage(`{"google":{"thought_signature":"x"}}`)}}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Message
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Reasoning != "r" || out.ReasoningField != FieldReasoning || string(out.ToolCalls[0].ExtraContent) != `{"google":{"thought_signature":"x"}}` {
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
	if r.Message.ReasoningField != FieldReasoning || string(r.Message.ToolCalls[0].ExtraContent) != `{"google":{"thought_signature":"s"}}` {
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

func TestListModels(t *testing.T) {
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Method != http.MethodGet || r.Header.Get("Authorization") != "Bearer sk-test-key-1234" {
			w.WriteHeader(404)
			return
		}
		io.WriteString(w, `{"object":"list","data":[{"id":"b"},{"id":"a"},{"id":null}]}`)
	})
	got, err := c.ListModels(context.Background())
	if err != nil || strings.Join(got, ",") != "a,b" {
		t.Errorf("%v %v", got, err)
	}
	bad, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(401)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided: sk-test-key-1234"}}`)
	})
	_, err = bad.ListModels(context.Background())
	if err == nil || strings.Contains(err.Error(), "sk-test-key-1234") || !strings.Contains(err.Error(), "401") {
		t.Errorf("error %v", err)
	}
}

func TestRejectsReasoning(t *testing.T) {
	cases := []struct {
		status int
		body   string
		want   bool
	}{
		{400, `{"error":{"message":"'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning' is unsupported)]"}}`, true},
		{400, `{"error":{"message":"'messages.4' : for 'role:assistant' the following must be satisfied[('messages.4' : property 'reasoning_content' is unsupported)]"}}`, true},
		{422, `{"detail":[{"type":"extra_forbidden","loc":["body","messages",1,"reasoning_content"],"msg":"Extra inputs are not permitted"}]}`, true},
		{400, "{\"error\":{\"message\":\"Missing `reasoning_content` field in the assistant message at message index 2.\"}}", false},
		{400, `{"error":{"message":"reasoning_effort is not supported with this model"}}`, false},
		{500, `{"error":{"message":"property 'reasoning' is unsupported"}}`, false},
		{400, `{"error":{"message":"max_tokens is too large"}}`, false},
	}
	for _, c := range cases {
		if got := rejectsReasoning(c.status, []byte(c.body)); got != c.want {
			t.Errorf("%d %s: %v, want %v", c.status, c.body, got, c.want)
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
			Message{Role: "user", Content: "question " + fmt.Sprint(i)},
			Message{Role: "assistant", Reasoning: strings.Repeat("thinking ", 40), ReasoningField: FieldReasoningContent,
				ToolCalls: []ToolCall{{ID: "c" + fmt.Sprint(i), Name: "read_file", Arguments: `{"path":"README.md"}`, ExtraContent: sig}}},
			Message{Role: "tool", ToolCallID: "c" + fmt.Sprint(i), Content: strings.Repeat("result line\n", 20)},
			Message{Role: "assistant", Content: strings.Repeat("answer ", 30)})
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
	if got := providerMessage([]byte(body)); got != "Function call is missing a thought_signature in functionCall parts." {
		t.Errorf("got %q", got)
	}
	if got := providerMessage([]byte(`[1, 2]`)); got != "" {
		t.Errorf("an array of numbers: %q", got)
	}
}
