package sessions

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

func TestSearchFindsUserAndAssistantText(t *testing.T) {
	s := openStore(t)
	mk := func(recs ...chat.Record) string {
		ss := s.Begin(Start{})
		for _, r := range recs {
			ss.Add(r)
		}
		closeSession(t, ss)
		return ss.ID()
	}
	a := mk(user("tell me about Rust lifetimes"), assistant("Lifetimes are…"))
	b := mk(user("weather?"), assistant("It is sunny in LISBON today"))
	mk(user("nothing here"), chat.Record{Message: &wire.Message{Role: "tool", Parts: wire.TextParts("lisbon in a tool result")}})

	hits, err := s.Search("lisbon")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Meta.ID != b || hits[0].Role != "assistant" || !strings.Contains(hits[0].Snippet, "LISBON") {
		t.Fatalf("hits = %+v, want the assistant's message only (tool results are not searched)", hits)
	}
	hits, _ = s.Search("LIFETIMES")
	if len(hits) != 1 || hits[0].Meta.ID != a || hits[0].Matches != 2 {
		t.Fatalf("hits = %+v", hits)
	}
}

// exported closes ss, loads it back from s and returns its index entry, what was loaded and
// its markdown export.
func exported(t *testing.T, s *Store, ss *Session) (Meta, Resumed, string) {
	t.Helper()
	closeSession(t, ss)
	m, _ := s.Find(ss.ID())
	r, err := s.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := Markdown(&md, m, r.Log); err != nil {
		t.Fatal(err)
	}
	return m, r, md.String()
}

func TestExportMarkdownAndJSON(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m", Endpoint: "http://h/v1", System: "be kind"}})
	ss.Add(user("show code"))
	call := wire.Message{Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}})}
	ss.Add(chat.Record{Message: &call})
	ss.Add(chat.Record{Message: &wire.Message{Role: "tool", ToolCallID: "c1", Name: "read_file", Parts: wire.TextParts("x ``` y\x1b[31m")}})
	ss.Add(assistant("```go\nfmt.Println()\n```"))
	m, r, out := exported(t, s, ss)
	for _, want := range []string{"# show code\n", "- Model: m\n", "## System\n\nbe kind\n", "## You\n\nshow code\n", "Tool call `read_file`:\n\n```json\n{\"path\":\"a\"}\n```\n", "````\nx ``` y", "## Assistant\n\n```go\nfmt.Println()\n```\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Error("an escape survived into the markdown")
	}
	var js bytes.Buffer
	if err := JSON(&js, m, r.Log); err != nil {
		t.Fatal(err)
	}
	var back Export
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.ID != m.ID || back.System != "be kind" || len(back.Messages) != 4 || back.Messages[1].Calls()[0].Name != "read_file" {
		t.Fatalf("json export = %+v", back)
	}
}

// A reply that talked between its calls is written in the order it was shown: text, a call,
// the text after it; calls after all the text follow the note of an incomplete reply.
func TestExportMarkdownKeepsTheReplysOrder(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{})
	ss.Add(user("look"))
	reply := wire.Message{Role: "assistant", Parts: []wire.Part{
		wire.Text{Text: "Let me look."}, wire.ToolCall{ID: "a", Name: "first", Arguments: "{}"},
		wire.Text{Text: " It says so."}, wire.ToolCall{Index: 1, ID: "b", Name: "second", Arguments: "{}"},
		wire.Text{Text: " So."}, wire.ToolCall{Index: 2, ID: "c", Name: "third", Arguments: "{}"},
	}}
	reply.End = phase.End{Why: phase.EndStopped}
	ss.Add(chat.Record{Message: &reply})
	_, _, out := exported(t, s, ss)
	want := "## Assistant\n\nLet me look.\n\nTool call `first`:\n\n```json\n{}\n```\n It says so.\n\nTool call `second`:\n\n```json\n{}\n```\n So.\n" +
		"\n*[The reply is incomplete: stopped by the user.]*\n\nTool call `third`:\n\n```json\n{}\n```\n"
	if !strings.HasSuffix(out, want) {
		t.Fatalf("markdown:\n%s\nwant it to end with:\n%s", out, want)
	}
}

// TestExportedUsageIsNullWhenNoneWasReported: zero tokens reported is not "not reported".
func TestExportedUsageIsNullWhenNoneWasReported(t *testing.T) {
	s := openStore(t)
	export := func(recs ...chat.Record) string {
		ss := s.Begin(Start{})
		for _, r := range recs {
			ss.Add(r)
		}
		closeSession(t, ss)
		m, _ := s.Find(ss.ID())
		r, err := s.Load(m)
		if err != nil {
			t.Fatal(err)
		}
		var js bytes.Buffer
		if err := JSON(&js, m, r.Log); err != nil {
			t.Fatal(err)
		}
		return js.String()
	}
	if got := export(user("hi"), assistant("hello")); !strings.Contains(got, `"usage": null`) {
		t.Errorf("no usage record, export:\n%s", got)
	}
	if got := export(user("hi"), assistant("hello"), chat.Record{Usage: &wire.Usage{}}); !strings.Contains(got, `"prompt_tokens": 0`) {
		t.Errorf("zero usage reported, export:\n%s", got)
	}
}

// A log with a damaged line exports what it could read and says which line it skipped.
func TestExportSaysSkippedLines(t *testing.T) {
	var md strings.Builder
	log := sessionlog.Log{Messages: []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}}, Skipped: []int{2, 5}}
	if err := Markdown(&md, Meta{ID: "x"}, log); err != nil {
		t.Fatal(err)
	}
	if want := "- Damaged: skipped 2 unreadable records (lines 2, 5)\n"; !strings.Contains(md.String(), want) {
		t.Fatalf("markdown lacks %q:\n%s", want, md.String())
	}
}
