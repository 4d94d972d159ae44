package stream

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
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
	c.Options = wire.Options{MaxTokens: &maxTokens, Temperature: &temp, ReasoningEffort: "low",
		ExtraBody: map[string]any{"top_k": 5, "options": map[string]any{"num_ctx": 8192}, "model": "not-this", "max_tokens": 1}}
	s := c.Stream(context.Background(), wire.Request{Model: "m", Messages: []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}}})
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
			req := wire.Request{Model: "m", Messages: []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}}}
			s := c.Stream(context.Background(), req)
			drain(s)
			r := s.Result()
			if tc.retried != (r.Outcome == wire.OutcomeComplete) || tc.retried != (r.Notice == NoticeStreamOptions) {
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
			if r := s.Result(); r.Outcome != wire.OutcomeComplete || r.Notice != "" {
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
	req := wire.Request{Model: "m", Messages: []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}}}
	for _, mode := range []wire.StreamOptionsMode{wire.StreamOptionsNever, wire.StreamOptionsAlways} {
		before := len(rec.bodies)
		c.Options.StreamOptions = mode
		s := c.Stream(context.Background(), req)
		drain(s)
		s.Close()
		if n := len(rec.bodies) - before; n != 1 {
			t.Errorf("mode %d: %d requests, want 1 (no retry)", mode, n)
		}
		_, has := rec.body(len(rec.bodies) - 1)["stream_options"]
		if has != (mode == wire.StreamOptionsAlways) {
			t.Errorf("mode %d: stream_options sent %v", mode, has)
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
	if err != nil || len(got) != 2 || got[0].ID != "a" || got[1].ID != "b" || got[0].Budget.Known() {
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
