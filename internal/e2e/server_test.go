package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/heldframes"
)

// server is the fixture server behind a recorder: it keeps every request body, counts the
// data frames it writes, and can hold [DONE] back until a gate opens.
type server struct {
	URL string
	t   *testing.T

	mu       sync.Mutex
	requests []wireRequest

	gate chan struct{} // nil: [DONE] is not held back

	frames     atomic.Int64 // data frames written so far, [DONE] excluded, over all responses
	gateMissed atomic.Bool  // a [DONE] went out with the gate still closed, after half the test's patience
}

// newServer starts the fixture server with opts and the extra scenario files (name → text),
// on 127.0.0.1, closed when the test ends.
func newServer(t *testing.T, opts fixtures.Options, scenarios map[string]string) *server {
	t.Helper()
	if len(scenarios) > 0 {
		opts.Dir = t.TempDir()
		for name, text := range scenarios {
			if err := os.WriteFile(filepath.Join(opts.Dir, name+".scenario"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	opts.BeforeFrame = heldframes.BeforeFrame
	h, err := fixtures.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req wireRequest
		if err := json.Unmarshal(body, &req); err != nil && !json.Valid(body) { // other formats' shapes differ
			t.Errorf("the client sent a body that is not JSON: %v\n%s", err, body)
		}
		req.Raw = body
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, heldframes.Answer(r, s.hold))
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(hs.Close)
	s.URL = hs.URL + "/v1"
	return s
}

// holdDone makes every later [DONE] wait until gate is closed.
func (s *server) holdDone(gate chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gate = gate
}

func (s *server) doneGate() chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gate
}

// Requests returns the requests received so far, in order.
func (s *server) Requests() []wireRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]wireRequest(nil), s.requests...)
}

// Last is the last request received; the test fails if there is none.
func (s *server) Last(t *testing.T) wireRequest {
	t.Helper()
	reqs := s.Requests()
	if len(reqs) == 0 {
		t.Fatal("the server received no request")
	}
	return reqs[len(reqs)-1]
}

// hold counts a data frame, and holds [DONE] back while the server's gate is closed, for half
// the test's patience at most (then it goes out, and gateMissed says so).
func (s *server) hold(f heldframes.Frame) {
	if !f.Done {
		s.frames.Add(1)
		return
	}
	if gate := s.doneGate(); gate != nil && !heldframes.WaitHalfPatience(s.t, func() bool {
		select {
		case <-gate:
			return true
		default:
			return false
		}
	}) {
		s.gateMissed.Store(true)
	}
}

// Scenario lines for the files tests write (docs/fixtures.md has the format).

// chunkLine is a scenario "data" line carrying one chat.completion.chunk.
func chunkLine(model string, delta map[string]any, finish string) string {
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	b, err := json.Marshal(map[string]any{"id": "chatcmpl-e2e-" + model, "object": "chat.completion.chunk",
		"created": 1795953600, "model": model, "choices": []any{choice}})
	if err != nil {
		panic(err)
	}
	return "data " + string(b)
}

func textLine(model, text string) string {
	return chunkLine(model, map[string]any{"content": text}, "")
}

// callLine starts call index (id, name) with the first piece of its arguments.
func callLine(model string, index int, id, name, args string) string {
	return chunkLine(model, map[string]any{"tool_calls": []any{map[string]any{"index": index, "id": id,
		"type": "function", "function": map[string]any{"name": name, "arguments": args}}}}, "")
}

// scenarioFile joins directives and frames into a scenario file: an event stream answer, and
// a quote of the results for a follow-up request.
func scenarioFile(description string, lines ...string) string {
	head := []string{"description " + description, "followup quote", "status 200",
		"header Content-Type: text/event-stream"}
	return strings.Join(append(head, lines...), "\n") + "\n"
}

// oneCall is a scenario whose answer is a short text and one call of tool with args.
func oneCall(model, tool, args string, extra ...string) string {
	lines := append(extra,
		chunkLine(model, map[string]any{"role": "assistant", "content": "Calling " + tool + "."}, ""),
		callLine(model, 0, "call_e2e_1", tool, args),
		chunkLine(model, map[string]any{}, "tool_calls"),
		"data [DONE]")
	return scenarioFile("e2e: one "+tool+" call", lines...)
}
