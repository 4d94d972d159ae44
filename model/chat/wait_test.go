package chat

import (
	"testing"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// waitOf is the one Wait for f among effects; ok is false when there is none.
func waitOf(t *testing.T, effects []Effect, f WaitFor) (Wait, bool) {
	t.Helper()
	var found []Wait
	for _, w := range effectsOf[Wait](effects) {
		if w.For == f {
			found = append(found, w)
		}
	}
	if len(found) > 1 {
		t.Fatalf("%d waits for %d: %+v", len(found), f, found)
	}
	if len(found) == 0 {
		return Wait{}, false
	}
	return found[0], true
}

// fail ends the open request with err.
func fail(h *harness, err *wire.Error) []Effect { return h.feed(failWith(err)) }

// A failure retried on its own returns the countdown's first second as a Wait; each Wait
// handed back counts a second down, and the last one sends the request again, once.
func TestAutomaticRetryCountsDownByWaits(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("hi"))
	w, ok := waitOf(t, fail(h, &wire.Error{Status: 429, Message: "slow down", RetryAfter: 3 * time.Second}), WaitRetry)
	if !ok || w.After != time.Second {
		t.Fatalf("no one-second retry wait: %+v", h.effects)
	}
	for left := 2; left >= 1; left-- {
		effects, _ := h.c.TimeUp(w)
		if in, quick := h.c.RetryIn(); in != time.Duration(left)*time.Second || quick {
			t.Fatalf("retry in %v (quick %v), want %ds", in, quick, left)
		}
		if w, ok = waitOf(t, effects, WaitRetry); !ok {
			t.Fatalf("the countdown stopped at %d: %+v", left, effects)
		}
	}
	effects, _ := h.c.TimeUp(w)
	if len(effectsOf[OpenStream](effects)) != 1 || !h.c.State.Phase.Streaming() {
		t.Fatalf("the countdown's end did not retry: %+v", effects)
	}
	if again, _ := h.c.TimeUp(w); len(again) != 0 {
		t.Fatalf("a wait handed back twice retried again: %+v", again)
	}
	if _, ok := waitOf(t, fail(h, &wire.Error{Status: 429, RetryAfter: time.Second}), WaitRetry); ok {
		t.Fatal("the automatic retry's own failure was retried on its own")
	}
}

// A countdown the user overtook (Retry) is over: its Waits do nothing when they come back.
func TestAnOvertakenCountdownsWaitsDoNothing(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("hi"))
	old, _ := waitOf(t, fail(h, &wire.Error{Status: 502, Helps: wire.RetrySoon}), WaitRetry)
	if _, quick := h.c.RetryIn(); !quick {
		t.Fatal("a failure before the first byte is not the quick retry")
	}
	h.do(h.c.Retry())
	if effects, _ := h.c.TimeUp(old); len(effects) != 0 {
		t.Fatalf("the old countdown acted while the retry streams: %+v", effects)
	}
	fresh, _ := waitOf(t, fail(h, &wire.Error{Status: 502, Helps: wire.RetrySoon}), WaitRetry)
	if fresh.Tag == old.Tag {
		t.Fatal("a new countdown kept the old tag")
	}
	if effects, _ := h.c.TimeUp(old); len(effects) != 0 {
		t.Fatalf("the old countdown acted on the new failure: %+v", effects)
	}
}

// A new approval question returns the quiet wait; a key before it is up is not an answer and
// waits again; once the keyboard was still, y answers.
func TestApprovalWaitsForAStillKeyboard(t *testing.T) {
	cfg := Config{CanAsk: true, Tools: fakeTools{sideEffects: map[string]bool{"write_note": true}}}
	h := newHarness(t, cfg)
	h.c.SetApprovalQuiet(50 * time.Millisecond)
	h.do(h.c.Submit("note it"))
	h.feed(toolFrame("write_note", start("w1", "write_note"), delta("w1", `{}`)))
	first, ok := waitOf(t, h.feed(doneUpdate(ready("w1"))), WaitApproval)
	if !ok || first.After != 50*time.Millisecond {
		t.Fatalf("a new question gave no quiet wait: %+v", h.effects)
	}
	if _, ok := waitOf(t, h.feed(text("more")), WaitApproval); ok {
		t.Fatal("the same question was armed again")
	}
	v, effects := h.c.ApprovalKey("y")
	again, ok := waitOf(t, effects, WaitApproval)
	if v.Answer || !ok || again.Tag == first.Tag {
		t.Fatalf("a key before the quiet was taken (%+v) or did not wait again: %+v", v, effects)
	}
	if _, notTaken := h.c.TimeUp(first); notTaken {
		t.Fatal("the overtaken wait armed the question")
	}
	if _, notTaken := h.c.TimeUp(again); !notTaken {
		t.Fatal("the key not taken is not reported once the keyboard was still")
	}
	v, effects = h.c.ApprovalKey("y")
	if !v.Answer || len(effectsOf[RunTool](effects)) != 1 {
		t.Fatalf("y after the quiet did not run the call: %+v %+v", v, effects)
	}
	h.expectPhase(phase.StreamingTool, "")
}
