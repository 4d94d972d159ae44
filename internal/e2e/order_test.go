package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// assistantBlocks writes the content blocks of a Messages request's first assistant message
// as "text:<text>" and "<tool_use id>", in order.
func assistantBlocks(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string
			Content []struct{ Type, Text, ID string }
		}
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, m := range req.Messages {
		if m.Role != "assistant" {
			continue
		}
		var out []string
		for _, b := range m.Content {
			if b.Type == "text" {
				out = append(out, "text:"+b.Text)
			} else {
				out = append(out, b.ID)
			}
		}
		return strings.Join(out, " ")
	}
	t.Fatalf("no assistant message in %s", body)
	return ""
}

// replyParts writes a reply entry's parts as "t:<text>" and "c:<call id>", in order.
func replyParts(e *transcript.Entry) string {
	var out []string
	for _, p := range e.Parts() {
		if p.IsCard() {
			out = append(out, "c:"+e.Cards()[p.Card()].ID())
		} else {
			out = append(out, "t:"+e.PartText(p))
		}
	}
	return strings.Join(out, " ")
}

// A Messages reply whose text and tool_use blocks alternate is shown in that order, goes back
// to the server in that order in the turn's follow-up, and — logged and resumed — is shown and
// sent back in that order again.
func TestInterleavedReplyKeepsItsOrderThroughTheLog(t *testing.T) {
	const (
		parts  = "t:First the listing.  c:toolu_fx_int1 t:Then a search. c:toolu_fx_int2"
		blocks = "text:First the listing.  toolu_fx_int1 text:Then a search. toolu_fx_int2"
	)
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	path := filepath.Join(t.TempDir(), "session.jsonl")
	w := sessionlog.Later(path, nil)
	before := len(srv.Requests())
	s := newSessionOn(t, srv, wire.WireAnthropic, chat.Config{Model: "anthropic-interleaved"}, nil, reg, w)
	s.submit("go")
	s.expectComplete()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := replyParts(s.chat().Entries()[1]); got != parts {
		t.Fatalf("live parts %q, want %q", got, parts)
	}
	reqs := srv.Requests()[before:]
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := assistantBlocks(t, reqs[1].Raw); got != blocks {
		t.Errorf("the follow-up sends the reply as %q, want %q", got, blocks)
	}
	saved, err := sessionlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	r := newSessionOn(t, srv, wire.WireAnthropic, chat.Config{Model: "anthropic-interleaved"}, saved.Messages, reg, nil)
	if got := replyParts(r.chat().Entries()[1]); got != parts {
		t.Fatalf("resumed parts %q, want %q", got, parts)
	}
	r.submit("and now?")
	r.expectComplete()
	if got := assistantBlocks(t, srv.Last(t).Raw); got != blocks {
		t.Errorf("resumed, the next request sends the reply as %q, want %q", got, blocks)
	}
}
