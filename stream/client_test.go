package stream

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// testServer starts an httptest server on 127.0.0.1 and a client for it with its own
// transport; both are shut down when the test ends.
func testServer(t testing.TB, h http.HandlerFunc) (*Client, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	tr := &http.Transport{}
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		tr.CloseIdleConnections()
	})
	c := NewClient(srv.URL+"/v1", "sk-test-key-1234")
	c.HTTP = &http.Client{Transport: tr}
	return c, srv
}

// drain reads a stream to its end and returns every update (the End update last).
func drain(s *Stream) []wire.Update {
	var ups []wire.Update
	for u, ok := s.Next(); ok; u, ok = s.Next() {
		ups = append(ups, u)
	}
	return ups
}

// fold runs updates through phase.Reduce (from a submit) and phase.ToolCalls.
func fold(ups []wire.Update) (phase.State, *phase.ToolCalls) {
	s := phase.Reduce(phase.State{}, phase.Event{Kind: phase.KindSubmit})
	m := phase.NewToolCalls()
	for _, u := range ups {
		for _, ev := range u.Events {
			s = phase.Reduce(s, ev)
		}
		for _, c := range u.Calls {
			m.Apply(c)
		}
	}
	return s, m
}

func sseHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}
}

func TestRequestShape(t *testing.T) {
	var got struct {
		method, path, auth, ctype, accept string
		body                              map[string]any
	}
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		got.method, got.path = r.Method, r.URL.Path
		got.auth, got.ctype, got.accept = r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.Header.Get("Accept")
		got.body = nil
		json.NewDecoder(r.Body).Decode(&got.body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: [DONE]\n\n")
	})
	req := wire.Request{
		Model: "m", System: "be brief",
		Messages: []wire.Message{
			{Role: "user", Parts: wire.TextParts("hi")},
			{Role: "assistant", Parts: wire.ReplyParts("never sent", "", []wire.ToolCall{{Index: 0, ID: "c1", Name: "f", Arguments: `{"a":1}`}})},
			{Role: "tool", ToolCallID: "c1", Parts: wire.TextParts("42")},
		},
		Tools: []wire.Tool{{Name: "f", Description: "does f", Parameters: json.RawMessage(`{"type":"object"}`)}, {Name: "g"}},
	}
	s := c.Stream(context.Background(), req)
	drain(s)
	s.Close()
	want := map[string]any{
		"model": "m",
		"messages": []any{
			map[string]any{"role": "system", "content": "be brief"},
			map[string]any{"role": "user", "content": "hi"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
				map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "f", "arguments": `{"a":1}`}}}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": "42"},
		},
		"tools": []any{
			map[string]any{"type": "function", "function": map[string]any{"name": "f", "description": "does f", "parameters": map[string]any{"type": "object"}}},
			map[string]any{"type": "function", "function": map[string]any{"name": "g", "parameters": map[string]any{}}},
		},
		"stream":         true,
		"stream_options": map[string]any{"include_usage": true},
	}
	if got.method != "POST" || got.path != "/v1/chat/completions" || got.auth != "Bearer sk-test-key-1234" ||
		got.ctype != "application/json" || got.accept != "text/event-stream" {
		t.Errorf("request = %s %s auth %q type %q accept %q", got.method, got.path, got.auth, got.ctype, got.accept)
	}
	if !reflect.DeepEqual(got.body, want) {
		b, _ := json.Marshal(got.body)
		t.Errorf("body = %s", b)
	}

	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got.body["stream"] != false || got.body["stream_options"] != nil || got.accept != "application/json" {
		t.Errorf("stream:false body = %v, accept %q", got.body, got.accept)
	}
}

func TestMessageJSONRoundTrip(t *testing.T) {
	in := []wire.Message{
		{Role: "user", Parts: wire.TextParts("")},
		{Role: "assistant", Parts: wire.ReplyParts("", "Let me check.", []wire.ToolCall{{Index: 0, ID: "a", Name: "f", Arguments: "{}"}, {Index: 1, ID: "b", Name: "g", Arguments: `{"x":1}`}})},
		{Role: "tool", ToolCallID: "a", Name: "f", Parts: wire.TextParts("ok")},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"role":"user","content":""},{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{\"x\":1}"}}]},{"role":"tool","content":"ok","tool_call_id":"a","name":"f"}]`; string(b) != want {
		t.Errorf("marshal = %s", b)
	}
	var out []wire.Message
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(out, in) {
		t.Errorf("round trip = %+v, %v", out, err)
	}
}

func TestStreamedEqualsBuffered(t *testing.T) {
	for name, sc := range equivalenceScenarios {
		t.Run(name, func(t *testing.T) {
			c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				var req struct{ Stream bool }
				json.NewDecoder(r.Body).Decode(&req)
				if req.Stream {
					sseHandler(sc.SSE)(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, sc.JSON)
			})
			s := c.Stream(context.Background(), wire.Request{Model: "m"})
			ups := drain(s)
			streamed := s.Result()
			s.Close()
			buffered, err := c.Complete(context.Background(), wire.Request{Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(streamed.Message, buffered.Message) || streamed.FinishReason != buffered.FinishReason ||
				!reflect.DeepEqual(streamed.Usage, buffered.Usage) || streamed.Outcome != buffered.Outcome {
				t.Errorf("streamed %+v\nbuffered %+v", streamed, buffered)
			}
			// The chat folds both the same way.
			sState, sCalls := fold(ups)
			bState, bCalls := fold(wire.BufferedUpdates(buffered))
			if sState.Phase != bState.Phase || sState.Text.String() != bState.Text.String() ||
				sState.Reasoning.String() != bState.Reasoning.String() || !reflect.DeepEqual(sCalls.List(), bCalls.List()) {
				t.Errorf("folded: streamed %v %q %v, buffered %v %q %v", sState.Phase, sState.Text.String(), sCalls.List(),
					bState.Phase, bState.Text.String(), bCalls.List())
			}
		})
	}
}

func TestStreamAnsweredWithAChatCompletion(t *testing.T) {
	sc := equivalenceScenarios["text then two fragmented calls"]
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, sc.JSON)
	})
	s := c.Stream(context.Background(), wire.Request{})
	ups := drain(s)
	res := s.Result()
	if res.Outcome != wire.OutcomeComplete || res.Message.Text() != "Checking both." || len(res.Message.Calls()) != 2 {
		t.Fatalf("result = %+v", res)
	}
	st, calls := fold(ups)
	if st.Phase != phase.Complete || calls.Len() != 2 || ups[len(ups)-1].N != 0 {
		t.Errorf("folded phase %v, %d calls", st.Phase, calls.Len())
	}
}

func TestCompleteReadsAnEventStreamToo(t *testing.T) {
	sc := equivalenceScenarios["reasoning and text"]
	c, _ := testServer(t, sseHandler(sc.SSE))
	res, err := c.Complete(context.Background(), wire.Request{})
	if err != nil || res.Message.Text() != "Hello world" || res.Message.Reasoning() != "Think." {
		t.Errorf("result %+v, err %v", res, err)
	}
}

func TestDefaultClientDoesNotTurnPostIntoGet(t *testing.T) {
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods = append(methods, r.Method)
		if r.URL.Path == "/v1/chat/completions" {
			http.Redirect(w, r, "/v2/chat/completions", http.StatusFound)
			return
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	c := NewClient(srv.URL+"/v1", "")
	s := c.Stream(context.Background(), wire.Request{})
	drain(s)
	s.Close()
	res := s.Result()
	if res.Outcome != wire.OutcomeError || !strings.Contains(res.Err.Message, "HTTP 302 from ") ||
		!strings.Contains(res.Err.Message, "redirects to /v2/chat/completions") || len(methods) != 1 {
		t.Errorf("outcome %q, err %v, methods %v", res.Outcome, res.Err, methods)
	}
}
