package e2e

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// nativeWires are the formats besides Chat Completions, with what their follow-up request
// must carry: each call's result, in the format's own shape.
var nativeWires = []struct {
	wire   wire.Wire
	result string // the marker of a tool result in a request body
}{
	{wire.WireAnthropic, `"type":"tool_result"`},
	{wire.WireResponses, `"type":"function_call_output"`},
}

// A whole tool-using turn in each format over real HTTP: the calls run as their blocks end,
// the follow-up carries their results in the format's shape, the final answer quotes them.
func TestToolTurnInEachWire(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	for _, w := range nativeWires {
		for _, kind := range []string{"tool", "parallel-tools", "interleaved"} {
			model := string(w.wire) + "-" + kind
			t.Run(model, func(t *testing.T) {
				before := len(srv.Requests())
				s := newSessionOn(t, srv, w.wire, chat.Config{Model: model, System: "Be brief."}, nil, reg, nil)
				early, late := 0, 0 // tools started by a frame of the stream, and by its end
				s.observe = func(msg any, effects []chat.Effect) {
					m, ok := msg.(chat.StreamMsg)
					if !ok {
						return
					}
					for _, e := range effects {
						if _, run := e.(chat.RunTool); run && m.More && m.Update.N > 0 {
							early++
						} else if run {
							late++
						}
					}
				}
				s.submit("go")
				s.expectComplete()
				if early == 0 || late != 0 {
					t.Errorf("%d tools started mid-stream, %d at its end: each must start at its own block's end", early, late)
				}
				reqs := srv.Requests()[before:]
				if len(reqs) != 2 {
					t.Fatalf("%d requests, want the first and its follow-up", len(reqs))
				}
				h := s.chat().History
				calls := len(h[1].Calls())
				if len(h) != 3+calls || h[0].Role != "user" || h[1].Role != "assistant" || h[len(h)-1].Role != "assistant" || calls == 0 {
					t.Fatalf("history %+v", h)
				}
				follow := reqs[1].Raw
				if n := bytes.Count(follow, []byte(w.result)); n != calls {
					t.Errorf("the follow-up carries %d results, want %d:\n%s", n, calls, follow)
				}
				if bytes.Contains(follow, []byte(`"messages":[{"role":"system"`)) || !bytes.Contains(follow, []byte("Be brief.")) {
					t.Errorf("the system prompt is not where the format puts it:\n%s", follow)
				}
				if !strings.HasPrefix(s.lastReply(), "Tool results received: ") {
					t.Errorf("final answer %q", s.lastReply())
				}
			})
		}
	}
}

// The reasoning each format wants back comes back: the fixture refuses a follow-up without
// it, as the real servers do, so the turn completes only if it did. A resumed session keeps it.
func TestNativeReasoningGoesBackAndSurvivesResume(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	for _, tt := range []struct {
		wire  wire.Wire
		model string
		proof string // in the follow-up
	}{
		{wire.WireAnthropic, "anthropic-thinking", `"signature":"RXhhbXBsZVNpZ25hdHVyZUZvclBoYXNlY2hhdEZpeHR1cmVz"`},
		{wire.WireResponses, "responses-reasoning", `"id":"rs_fx_reason1"`},
	} {
		t.Run(tt.model, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "session.jsonl")
			w := sessionlog.Later(path, nil)
			before := len(srv.Requests())
			s := newSessionOn(t, srv, tt.wire, chat.Config{Model: tt.model}, nil, reg, w)
			s.submit("what time is it")
			s.expectComplete()
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()[before:]
			if len(reqs) != 2 || !bytes.Contains(reqs[1].Raw, []byte(tt.proof)) {
				t.Fatalf("the follow-up lacks %s", tt.proof)
			}
			if r := s.chat().History[1]; r.Reasoning() == "" || r.Native == nil || r.Native.Wire != tt.wire {
				t.Errorf("the reply lost its reasoning: %+v", r)
			}
			saved, err := sessionlog.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if n := saved.Messages[1].Native; n == nil || n.Wire != tt.wire || len(n.Items) != 1 {
				t.Fatalf("the log lost the native reasoning: %+v", saved.Messages[1])
			}
			// Resumed, the next turn's request still sends the earlier tool turn's reasoning.
			r := newSessionOn(t, srv, tt.wire, chat.Config{Model: tt.model}, saved.Messages, reg, nil)
			r.submit("and now?")
			r.expectComplete()
			if last := srv.Last(t).Raw; !bytes.Contains(last, []byte(tt.proof)) {
				t.Errorf("the resumed request lacks %s:\n%s", tt.proof, last)
			}
		})
	}
}

// Esc, Retry and errors behave in each format as on Chat Completions.
func TestEscRetryAndErrorsInEachWire(t *testing.T) {
	scenarios := map[string]string{}
	for _, w := range nativeWires {
		// Overloaded once, then the format's text scenario (per server): Retry recovers.
		scenarios[string(w.wire)+"-flaky"] = "description e2e: overloaded, then text\nformat " + string(w.wire) + "\nalternate " + string(w.wire) + "-text\n" +
			"status 529\nheader Content-Type: application/json\n" +
			`line {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}` + "\n"
	}
	srv := newServer(t, fixtures.Options{}, scenarios)
	reg := newRegistry(t, nil, "")
	for _, w := range nativeWires {
		t.Run(string(w.wire), func(t *testing.T) {
			// An error event mid-stream: the provider's message, the partial text kept, Retry offered.
			s := newSessionOn(t, srv, w.wire, chat.Config{Model: string(w.wire) + "-error-event"}, nil, reg, nil)
			s.submit("hello")
			if st := s.chat().State; st.Phase != phase.Error || !strings.HasPrefix(st.Reason, "The server sent an error: ") {
				t.Fatalf("after an error event: %s %q", st.Phase, st.Reason)
			}
			if !strings.HasPrefix(s.lastReply(), "Starting to answer") {
				t.Errorf("the partial reply is gone: %q", s.lastReply())
			}
			if len(s.chat().History) != 1 {
				t.Errorf("a failed reply joined the history: %+v", s.chat().History)
			}

			// Overloaded, then Retry: the same request again, and this time an answer.
			f := newSessionOn(t, srv, w.wire, chat.Config{Model: string(w.wire) + "-flaky"}, nil, reg, nil)
			f.submit("hello")
			if st := f.chat().State; st.Phase != phase.Error || !strings.Contains(st.Reason, "HTTP 529") || !strings.Contains(st.Reason, "Overloaded") {
				t.Fatalf("overloaded: %s %q", st.Phase, st.Reason)
			}
			f.d.Apply(f.chat().Retry())
			f.until("the retry is over", f.turnOver)
			f.expectComplete()
			if !strings.HasPrefix(f.lastReply(), "Hello! This is a plain") {
				t.Errorf("after Retry: %q", f.lastReply())
			}

			// Esc while a call's arguments stall: stopped, the unfinished call dropped, the
			// history valid, and the next request goes through.
			e := newSessionOn(t, srv, w.wire, chat.Config{Model: string(w.wire) + "-stall-between-tool-chunks"}, nil, reg, nil)
			e.start("read it")
			e.until("the call to start", func() bool {
				entries := e.chat().Entries()
				return len(entries) > 1 && len(entries[len(entries)-1].Cards()) == 1
			})
			e.d.Apply(e.chat().Stop())
			if st := e.chat().State; st.Phase != phase.Complete || !st.Stopped {
				t.Fatalf("after Esc: %s stopped=%v", st.Phase, st.Stopped)
			}
			for _, m := range e.chat().History {
				if len(m.Calls()) > 0 {
					t.Errorf("a call that never became ready joined the history: %+v", m)
				}
			}
		})
	}
}

// The same turn with stream:false in each format, and the built-in demo in each format: the
// answers are whole bodies of the format (or the demo's generated stream), the turn the same.
func TestBufferedAndDemoTurnsInEachWire(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	for _, w := range nativeWires {
		t.Run(string(w.wire)+"/buffered", func(t *testing.T) {
			s := newSessionOn(t, srv, w.wire, chat.Config{Model: string(w.wire) + "-parallel-tools", NoStream: true}, nil, reg, nil)
			s.submit("go")
			s.expectComplete()
			if h := s.chat().History; len(h) != 6 || len(h[1].Calls()) != 3 || !strings.HasPrefix(s.lastReply(), "Tool results received: now → ") {
				t.Fatalf("history %+v; answer %q", h, s.lastReply())
			}
			if last := srv.Last(t).Raw; !bytes.Contains(last, []byte(`"stream":false`)) {
				t.Errorf("not a buffered request: %s", last)
			}
		})
		t.Run(string(w.wire)+"/demo", func(t *testing.T) {
			s := newSessionOn(t, srv, w.wire, chat.Config{Model: fixtures.DemoModel}, nil, reg, nil)
			s.submit("what time is it?")
			s.expectComplete()
			if !strings.HasPrefix(s.lastReply(), "Here is what the tools returned:") {
				t.Errorf("the demo's answer %q", s.lastReply())
			}
		})
	}
}
