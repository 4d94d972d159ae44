package chat

import (
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/stream/wire"
)

// stepClock is a clock the test moves by hand.
type stepClock struct{ now time.Time }

func (k *stepClock) read() time.Time { return k.now }

func TestCountersEstimateUntilTheServerReportsUsage(t *testing.T) {
	k := &stepClock{now: time.Unix(1000, 0)}
	h := newHarness(t, Config{Model: "m", Tools: fakeTools{}, Clock: k.read})
	h.do(h.c.Submit("look it up"))
	h.feed(text("twelve bytes")) // 12 bytes: 3 tokens
	if e, n, _ := h.c.Counters(); e != 0 || n != 0 {
		t.Fatalf("before any tick the counters show %v, %d", e, n)
	}
	k.now = k.now.Add(2500 * time.Millisecond)
	h.c.Tick(k.now)
	if e, n, est := h.c.Counters(); e != 2*time.Second || n != 3 || !est {
		t.Fatalf("counters = %v, %d, estimated %v; want 2s, ~3", e, n, est)
	}
	h.feed(text(" and more")) // no tick: the figures stay as the last second left them
	if _, n, _ := h.c.Counters(); n != 3 {
		t.Fatalf("a token moved the counters to %d between ticks", n)
	}
	h.feed(toolFrame("lookup", start("call_0", "lookup"), delta("call_0", `{}`), ready("call_0")))
	h.feed(doneUpdate())
	h.end(complete(&wire.Usage{PromptTokens: 50, CompletionTokens: 7}))
	k.now = k.now.Add(time.Second)
	h.c.Tick(k.now)
	if e, n, est := h.c.Counters(); e != 3*time.Second || n != 7 || est {
		t.Fatalf("with the server's usage: %v, %d, estimated %v; want 3s, 7 exact", e, n, est)
	}
	h.toolDone("call_0", "found", false)
	h.feed(text("12345678")) // the next request: 2 more, estimated
	k.now = k.now.Add(time.Second)
	h.c.Tick(k.now)
	if _, n, est := h.c.Counters(); n != 9 || !est {
		t.Fatalf("second request: %d, estimated %v; want ~9", n, est)
	}
	h.end(complete(&wire.Usage{PromptTokens: 60, CompletionTokens: 4}))
	if e, n, _ := h.c.Counters(); e != 0 || n != 0 {
		t.Fatalf("after the turn the counters show %v, %d", e, n)
	}
}

// The turn's last reply carries its tally: the model, the time from the message to the last
// reply, the tokens of all its requests, and the cost at the model's price.
func TestTallyUnderTheTurnsLastReply(t *testing.T) {
	k := &stepClock{now: time.Unix(1000, 0)}
	price := &budget.Price{In: 1, Out: 2, CachedIn: 0.5}
	h := newHarness(t, Config{Provider: "acme", Model: "m", Tools: fakeTools{}, Clock: k.read, Budget: budget.Model{Window: 1000, Price: price}})
	h.do(h.c.Submit("look it up"))
	h.feed(toolFrame("lookup", start("call_0", "lookup"), delta("call_0", `{}`), ready("call_0")))
	h.feed(doneUpdate())
	h.end(complete(&wire.Usage{PromptTokens: 100, CompletionTokens: 10, CachedTokens: 40}))
	first := h.c.Entries()[len(h.c.Entries())-1]
	k.now = k.now.Add(1500 * time.Millisecond)
	h.toolDone("call_0", "found", false)
	h.feed(text("Found it."))
	h.end(complete(&wire.Usage{PromptTokens: 120, CompletionTokens: 20, ReasoningTokens: 5}))
	if _, ok := first.Tally(); ok {
		t.Fatal("a reply that did not end the turn has a tally")
	}
	last := h.c.Entries()[len(h.c.Entries())-1]
	got, ok := last.Tally()
	if !ok {
		t.Fatal("the turn's last reply has no tally")
	}
	if got.Model != "acme/m" || got.Duration != 1500*time.Millisecond || got.Prompt != 220 || got.Cached != 40 ||
		got.Completion != 30 || got.Reasoning != 5 || !got.Priced {
		t.Fatalf("tally %+v", got)
	}
	want := price.Cost(wire.Usage{PromptTokens: 220, CachedTokens: 40, CompletionTokens: 30})
	if got.Cost != want {
		t.Fatalf("cost %v, want %v", got.Cost, want)
	}
}
