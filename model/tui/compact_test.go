package tui

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
)

// /compact asks for a summary with the compaction prompt, shows it as its own entry, and the
// next message goes with the summary in place of the older turn.
func TestCompactCommandSendsTheSummaryNext(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	for _, q := range []string{"first question", "second question", "third question"} {
		h.submit(q)
		h.feedAll()
	}
	h.submit("/compact the penguins")
	h.feedAll()
	reqs := h.server.requests()
	ask := reqs[3]
	if len(ask.Messages) != 2 || ask.Messages[0].Text() != chat.CompactPrompt || !strings.Contains(ask.Messages[1].Text(), "Keep above all: the penguins") {
		t.Fatalf("the summary request: %+v", ask.Messages)
	}
	if cp := h.m.Chat().Compacted(); cp.Turns != 1 || cp.Summary == "" {
		t.Fatalf("compaction %+v", cp)
	}
	entries := h.m.Chat().Entries()
	if e := entries[len(entries)-2]; !strings.HasPrefix(e.Text(), chat.SummaryHeading) {
		t.Fatalf("the summary is not its own entry: %q", e.Text())
	}
	h.submit("fourth question")
	h.feedAll()
	next := h.server.requests()[4].Messages
	if strings.Contains(string(h.server.requests()[4].body), "first question") || !strings.HasPrefix(next[0].Text(), chat.SummaryHeading) ||
		!strings.HasSuffix(next[0].Text(), "second question") {
		t.Fatalf("the request after /compact: %+v", next)
	}
}

// Esc while the summary streams stops it, and nothing changes.
func TestCompactStoppedWithEsc(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("first question")
	h.feedAll()
	h.submit("/compact")
	if !h.m.Chat().State.Phase.Streaming() {
		t.Fatal("the summary request did not start")
	}
	h.send(keyEsc)
	h.feedAll()
	if cp := h.m.Chat().Compacted(); cp.Turns != 0 || h.m.Chat().State.Phase.Streaming() {
		t.Fatalf("after Esc: compaction %+v, phase %s", cp, h.m.Chat().State.Phase)
	}
	h.submit("second question")
	h.feedAll()
	reqs := h.server.requests()
	if last := reqs[len(reqs)-1].Messages; last[0].Text() != "first question" {
		t.Fatalf("the request after a stopped /compact: %+v", last)
	}
}
