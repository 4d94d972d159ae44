package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// rawMessages are a request's messages as the server got them, every field kept.
func rawMessages(t *testing.T, req wireRequest) []map[string]any {
	t.Helper()
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	if err := json.Unmarshal(req.Raw, &body); err != nil {
		t.Fatal(err)
	}
	return body.Messages
}

func notices(entries []*transcript.Entry, containing string) int {
	n := 0
	for _, e := range entries {
		if e.Role() == transcript.RoleNotice && strings.Contains(e.Text(), containing) {
			n++
		}
	}
	return n
}

// A server that rejects stream_options (422 naming it, as Mistral does) gets the request again
// without it; the client remembers for the session and says so once.
func TestStreamOptionsRejectedIsRetriedWithout(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	s := newSession(t, srv, chat.Config{Model: "stream-options-strict"}, nil, nil, nil)
	s.submit("hello")
	s.expectComplete()
	s.submit("again")
	s.expectComplete()
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (the refused one, its retry, the next turn's)", len(reqs))
	}
	for i, want := range []bool{true, false, false} {
		if got := strings.Contains(string(reqs[i].Raw), `"stream_options"`); got != want {
			t.Errorf("request %d carries stream_options: %v, want %v", i+1, got, want)
		}
	}
	if n := notices(s.chat().Entries(), "rejects stream_options"); n != 1 {
		t.Errorf("the notice is shown %d times, want once", n)
	}
	if s.lastReply() != "No stream_options here." {
		t.Errorf("reply %q", s.lastReply())
	}
}

// DeepSeek's thinking mode: a tool loop completes in one turn because the assistant message
// with tool calls goes back with its reasoning_content; the next turn drops it again.
func TestDeepSeekThinkingToolLoop(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	s := newSession(t, srv, chat.Config{Model: "deepseek-thinking-tools"}, nil, reg, nil)
	s.submit("what time is it")
	s.expectComplete()
	if !strings.HasPrefix(s.lastReply(), "Tool results received: now → ") {
		t.Fatalf("the tool loop did not complete: %q", s.lastReply())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	msgs := rawMessages(t, reqs[1])
	if got := msgs[1]["reasoning_content"]; got != "The user wants the time. I will call now." {
		t.Errorf("the follow-up's assistant message has reasoning_content %v", got)
	}
	s.submit("and now?")
	s.expectComplete()
	last := rawMessages(t, srv.Last(t))
	for i, m := range last[:4] { // the first turn: user, assistant with the call, tool, answer
		if _, ok := m["reasoning_content"]; ok {
			t.Errorf("a new turn still sends message %d's reasoning_content", i)
		}
	}
	if last[4]["content"] != "and now?" || last[5]["reasoning_content"] == nil {
		t.Errorf("the second turn's own tool loop should carry its reasoning: %v", last[4:])
	}
}

// Gemini over its OpenAI-compatible endpoint: each tool call's extra_content (its thought
// signature) goes back unchanged within the turn.
func TestGeminiThoughtSignaturesGoBack(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	for _, buffered := range []bool{false, true} {
		s := newSession(t, srv, chat.Config{Model: "gemini-thought-signatures", NoStream: buffered}, nil, reg, nil)
		s.submit("what time is it")
		s.expectComplete()
		if !strings.HasPrefix(s.lastReply(), "Tool results received: now → ") {
			t.Fatalf("buffered %v: the tool loop did not complete: %q", buffered, s.lastReply())
		}
		msgs := rawMessages(t, srv.Last(t))
		calls, _ := msgs[1]["tool_calls"].([]any)
		if len(calls) != 1 {
			t.Fatalf("follow-up tool calls %v", msgs[1])
		}
		extra, _ := json.Marshal(calls[0].(map[string]any)["extra_content"])
		if string(extra) != `{"google":{"thought_signature":"CtgBAXLI2nxSig=="}}` {
			t.Errorf("buffered %v: extra_content sent back as %s", buffered, extra)
		}
	}
}

// A reply the server cut off (finish_reason length) is marked on the reply and in the status
// line; a tool call cut off with it is not run and the turn does not go on by itself.
func TestCutOffRepliesAreMarked(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	const want = "The reply was cut off: the model reached its output limit (finish_reason length)."
	for _, model := range []string{"length", "length-tool"} {
		before := len(srv.Requests())
		s := newSession(t, srv, chat.Config{Model: model}, nil, reg, nil)
		s.submit("go on")
		st := s.chat().State
		if st.Phase != phase.Complete || phase.Status(st) != want {
			t.Errorf("%s: phase %s, status %q", model, st.Phase, phase.Status(st))
		}
		var reply *transcript.Entry
		for _, e := range s.chat().Entries() {
			if e.Role() == transcript.RoleAssistant {
				reply = e
			}
		}
		if reply == nil || reply.Mark() != transcript.MarkCutOff || reply.Note() != want {
			t.Errorf("%s: the reply is not marked: %+v", model, reply)
		}
		if n := len(srv.Requests()) - before; n != 1 {
			t.Errorf("%s: %d requests, want 1: a cut-off reply does not continue the tool loop", model, n)
		}
		if model == "length-tool" {
			card := reply.Cards()[0]
			if card.Status() != phase.CallInterrupted || !strings.Contains(card.Result(), "not run: The reply was cut off") {
				t.Errorf("the cut-off call: %+v", card)
			}
			for _, m := range s.chat().History {
				if len(m.Calls()) > 0 || m.Role == "tool" {
					t.Errorf("the cut-off call went into the history: %+v", m)
				}
			}
			s.submit("try again")
			if !strings.Contains(string(srv.Last(t).Raw), `"content":"try again"`) {
				t.Error("the next request after a cut-off call was not sent")
			}
		}
	}
}

// Prompt tokens exactly at Ollama's default context: a notice says the start may be lost.
func TestContextCapNotice(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	s := newSession(t, srv, chat.Config{Model: "context-cap"}, nil, nil, nil)
	s.submit("summarise everything")
	s.expectComplete()
	s.submit("again")
	s.expectComplete()
	if n := notices(s.chat().Entries(), "exactly 4096 tokens"); n != 1 {
		t.Errorf("the context notice is shown %d times, want once", n)
	}
	if n := notices(s.chat().Entries(), "OLLAMA_CONTEXT_LENGTH"); n != 1 {
		t.Error("the notice does not say how to raise the context")
	}
}

// A reasoning tool loop's log keeps the reasoning and the thought signatures, so a resumed
// session holds them; the strict servers accept what it sends next.
func TestResumeAReasoningToolLoop(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	for _, model := range []string{"deepseek-thinking-tools", "gemini-thought-signatures"} {
		t.Run(model, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "session.jsonl")
			w := sessionlog.Later(path, nil)
			s := newSession(t, srv, chat.Config{Model: model}, nil, reg, w)
			s.submit("what time is it")
			s.expectComplete()
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			saved, err := sessionlog.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			var withCalls wire.Message
			for _, m := range saved.Messages {
				if len(m.Calls()) > 0 {
					withCalls = m
				}
			}
			switch model {
			case "deepseek-thinking-tools":
				if withCalls.Reasoning() == "" || withCalls.ReasoningField != wire.FieldReasoningContent {
					t.Errorf("the log lost the reasoning: %+v", withCalls)
				}
			default:
				if string(withCalls.Calls()[0].ExtraContent) != `{"google":{"thought_signature":"CtgBAXLI2nxSig=="}}` {
					t.Errorf("the log lost extra_content: %+v", withCalls)
				}
			}
			// Cut the log right after the assistant message with the calls: resuming answers
			// the call as interrupted; the next turn goes through.
			data, _ := os.ReadFile(path)
			lines := strings.SplitAfter(string(data), "\n")
			var cut []string
			for _, l := range lines {
				cut = append(cut, l)
				if strings.Contains(l, `"tool_calls"`) {
					break
				}
			}
			if err := os.WriteFile(path, []byte(strings.Join(cut, "")), 0o600); err != nil {
				t.Fatal(err)
			}
			saved, err = sessionlog.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			r := newSession(t, srv, chat.Config{Model: model}, saved.Messages, reg, nil)
			r.submit("what time is it now")
			r.expectComplete()
		})
	}
}

// Groq refuses reasoning on assistant messages: the follow-up is sent again without it, once
// for the session, said once; the tool loop still completes in one turn.
func TestReasoningRefusedIsDroppedForTheSession(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	s := newSession(t, srv, chat.Config{Model: "groq-reasoning-strict"}, nil, reg, nil)
	s.submit("what time is it")
	s.expectComplete()
	s.submit("and now?")
	s.expectComplete()
	if !strings.HasPrefix(s.lastReply(), "Tool results received: now → ") {
		t.Fatalf("the tool loop did not complete: %q", s.lastReply())
	}
	var carried []bool
	for _, r := range srv.Requests() {
		carried = append(carried, strings.Contains(string(r.Raw), `"reasoning":"Time needs a tool."`))
	}
	// turn 1: the call, the refused follow-up, its retry; turn 2: the call, the follow-up.
	if want := []bool{false, true, false, false, false}; fmt.Sprint(carried) != fmt.Sprint(want) {
		t.Errorf("requests carrying reasoning %v, want %v", carried, want)
	}
	if n := notices(s.chat().Entries(), "refuses reasoning"); n != 1 {
		t.Errorf("the notice is shown %d times, want once", n)
	}
}
