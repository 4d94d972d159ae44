package chat

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// liveLog is what the Live records among a run of effects say, in order: "what:text|id".
type liveLog []string

func (l *liveLog) add(effects []Effect) {
	for _, r := range effectsOf[Record](effects) {
		if r.Live != nil {
			*l = append(*l, string(r.Live.What)+":"+r.Live.Text+r.Live.ID)
		}
	}
}

// A request is recorded as it happens: its start, the text since the last pull, each call once
// its arguments are whole (the text before it first), the approval asked and answered, the
// tool's start before the effect that runs it, and its result.
func TestARequestIsRecordedAsItHappens(t *testing.T) {
	var got liveLog
	h := newHarness(t, Config{CanAsk: true, Tools: fakeTools{sideEffects: map[string]bool{"write_note": true}}})
	got.add(h.do(h.c.Submit("note it")))
	got.add(h.feed(text("Sure, ")))
	got.add(h.feed(text("noting.")))
	got.add(h.feed(toolFrame("write_note", start("w1", "write_note"), delta("w1", `{"text":"hi"}`))))
	got.add(h.feed(doneUpdate(ready("w1"))))
	got.add(h.end(complete(nil)))
	effects := h.do(h.c.Approve(Allow))
	got.add(effects)
	run := -1
	for i, e := range effects {
		if r, ok := e.(Record); ok && r.Live != nil && r.Live.What == LiveRun {
			run = i
		}
		if _, ok := e.(RunTool); ok && (run < 0 || run > i) {
			t.Fatalf("the tool is run before its start is recorded: %+v", effects)
		}
	}
	got.add(h.toolDone("w1", "saved", false))
	want := "begin:|text:Sure, |text:noting.|call:w1|ask:w1|answer:w1|run:w1|result:savedw1|begin:"
	if strings.Join(got, "|") != want {
		t.Fatalf("live records\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

// A request that fails records how it ended, so a log that stops there says so.
func TestAFailedRequestRecordsItsEnd(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("hello"))
	h.feed(text("Hal"))
	var got liveLog
	got.add(h.feed(errorUpdate("HTTP 500")))
	var end *Live
	for _, r := range effectsOf[Record](h.effects) {
		if r.Live != nil && r.Live.What == LiveEnd {
			end = r.Live
		}
	}
	if end == nil || end.End.Why != phase.EndFailed || end.End.Note == "" {
		t.Fatalf("records of a failed request: %v", got)
	}
}

// A reply cut short by a crash reaches the model with a note saying so (an empty one as the
// note alone); the history itself is left as it is.
func TestTheModelIsToldOfACrashedReply(t *testing.T) {
	crashed := phase.End{Why: phase.EndCrashed}
	history := []wire.Message{
		{Role: "user", Parts: wire.TextParts("one")}, {Role: "assistant", Parts: wire.TextParts("Half a"), End: crashed},
		{Role: "user", Parts: wire.TextParts("two")}, {Role: "assistant", End: crashed},
	}
	h := newHarness(t, Config{})
	h.c = New(Config{}, history)
	opens := effectsOf[OpenStream](h.do(h.c.Submit("three")))
	if len(opens) != 1 {
		t.Fatalf("effects %+v", h.effects)
	}
	sent := opens[0].Request.Messages
	if sent[1].Text() != "Half a\n\n[interrupted: phasechat stopped unexpectedly]" || sent[3].Text() != "[interrupted: phasechat stopped unexpectedly]" {
		t.Fatalf("sent %q and %q", sent[1].Text(), sent[3].Text())
	}
	if h.c.History[1].Text() != "Half a" || h.c.History[3].Text() != "" {
		t.Fatalf("the history changed: %+v", h.c.History)
	}
}

// Usage is recorded as soon as an update brings it, not only when the stream ends.
func TestUsageIsRecordedAsItArrives(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("hello"))
	u := text("Hi")
	u.Usage = &wire.Usage{PromptTokens: 12, CompletionTokens: 1, TotalTokens: 13}
	var usage *wire.Usage
	for _, r := range effectsOf[Record](h.feed(u)) {
		if r.Live != nil && r.Live.What == LiveUsage {
			usage = r.Live.Usage
		}
	}
	if usage == nil || *usage != *u.Usage {
		t.Fatalf("usage recorded %+v, want %+v", usage, *u.Usage)
	}
}
