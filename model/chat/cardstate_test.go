package chat

import (
	"fmt"
	"testing"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// places lists each card's approval place as "id:place/of".
func places(h *harness) string {
	out := ""
	for _, c := range h.c.step.entry.Cards() {
		p, of := c.AskPlace()
		out += fmt.Sprintf("%s:%d/%d ", c.ID(), p, of)
	}
	return out
}

// Waiting approvals are numbered in the order y answers them; answering one renumbers the
// rest; a declined card says so, and the model still reads the declined result.
func TestApprovalsAreNumberedAndDeclinesShown(t *testing.T) {
	h := newHarness(t, Config{CanAsk: true, Tools: fakeTools{sideEffects: map[string]bool{"write_note": true}}})
	h.do(h.c.Submit("note three things"))
	for _, id := range []string{"w1", "w2", "w3"} {
		h.feed(toolFrame("write_note", start(id, "write_note"), delta(id, `{}`)))
	}
	h.feed(doneUpdate(ready("w1"), ready("w2"), ready("w3")))
	h.end(complete(nil))
	for _, tc := range []struct {
		answer Decision
		want   string
	}{
		{Deny, "w1:0/0 w2:1/2 w3:2/2 "},
		{Allow, "w1:0/0 w2:0/0 w3:1/1 "},
	} {
		before := places(h)
		h.do(h.c.Approve(tc.answer))
		if got := places(h); got != tc.want {
			t.Fatalf("after answering %s: %s, want %s", before, got, tc.want)
		}
	}
	if got := places(h); got != "w1:0/0 w2:0/0 w3:1/1 " {
		t.Fatalf("places %s", got)
	}
	cards := h.c.step.entry.Cards()
	if !cards[0].Declined() || cards[1].Declined() || cards[0].Status() != phase.CallDeclined {
		t.Fatalf("declined: %v %v, status %s", cards[0].Declined(), cards[1].Declined(), cards[0].Status())
	}
	h.do(h.c.Approve(Deny))
	h.toolDone("w2", "saved", false)
	var declined int
	for _, m := range h.c.History {
		if m.Role == "tool" && m.Text() == resultDeclined {
			declined++
		}
	}
	if declined != 2 {
		t.Fatalf("%d declined results in the history, want 2: %+v", declined, h.c.History)
	}
	// A resumed conversation shows the declined call as declined too.
	again := New(Config{}, h.c.History)
	for _, e := range again.Entries() {
		for _, c := range e.Cards() {
			if want := c.Result() == resultDeclined; c.Declined() != want {
				t.Fatalf("resumed card %s: declined %v, result %q", c.ID(), c.Declined(), c.Result())
			}
		}
	}
}

// A running tool's card counts the time from when it was handed over to run, as the clock
// ticks reach the engine, and stops counting when it ends.
func TestRunningCardsCountTheirTime(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := newHarness(t, Config{Tools: fakeTools{}, Clock: func() time.Time { return t0 }})
	h.do(h.c.Submit("what time is it"))
	if h.c.Running() {
		t.Fatal("running before any tool started")
	}
	h.feed(toolFrame("now", start("a", "now"), delta("a", "{}")))
	h.feed(doneUpdate(ready("a")))
	if !h.c.Running() {
		t.Fatal("the started tool is not running")
	}
	card := func() time.Duration { c, _ := h.c.step.entry.Card("a"); return c.Elapsed() }
	for _, tc := range []struct {
		at   time.Duration
		want time.Duration
	}{{-time.Second, 0}, {1500 * time.Millisecond, 1500 * time.Millisecond}, {1900 * time.Millisecond, 1500 * time.Millisecond}, {3 * time.Second, 3 * time.Second}} {
		h.c.Tick(t0.Add(tc.at))
		if got := card(); got != tc.want {
			t.Fatalf("at %s: elapsed %s, want %s", tc.at, got, tc.want)
		}
	}
	entry := h.c.step.entry
	h.end(wire.Result{Outcome: wire.OutcomeComplete})
	h.toolDone("a", "noon", false)
	if c, _ := entry.Card("a"); c.Elapsed() != 0 || h.c.Running() {
		t.Fatalf("after the result: elapsed %s, running %v", c.Elapsed(), h.c.Running())
	}
}

// A watched tool's output shows on its running card and asks for the next message; output
// of an older request is dropped, and the result clears it.
func TestToolOutputShowsOnTheRunningCard(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{}, LiveOutput: true})
	h.do(h.c.Submit("build it"))
	h.feed(toolFrame("now", start("a", "now"), delta("a", "{}")))
	effects := h.feed(doneUpdate(ready("a")))
	if runs := effectsOf[RunTool](effects); len(runs) != 1 || !runs[0].Watch {
		t.Fatalf("the tool is not run watched: %+v", effects)
	}
	next := func() any { return nil }
	got := h.c.HandleToolOutput(ToolOutputMsg{Req: h.req(), CallID: "a", Output: "step 1\nstep 2", Next: next})
	if a := effectsOf[AwaitTool](got); len(a) != 1 {
		t.Fatalf("no AwaitTool after output: %+v", got)
	}
	entry := h.c.step.entry
	if c, _ := entry.Card("a"); c.Output() != "step 1\nstep 2" {
		t.Fatalf("card output %q", c.Output())
	}
	if stale := h.c.HandleToolOutput(ToolOutputMsg{Req: h.req() - 1, CallID: "a", Output: "old", Next: next}); stale != nil {
		t.Fatalf("an older request's output asked for more: %+v", stale)
	}
	if c, _ := entry.Card("a"); c.Output() != "step 1\nstep 2" {
		t.Fatalf("an older request's output was shown: %q", c.Output())
	}
	h.end(complete(nil))
	h.toolDone("a", "built", false)
	if c, _ := entry.Card("a"); c.Output() != "" {
		t.Fatalf("output %q stays after the result", c.Output())
	}
}
