package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// tooLong is the error of a request the model refused as too long for its context.
var tooLong = &wire.Error{
	Message: "The conversation is too long for this model. Retrying will not help",
	Status:  400,
	Helps:   wire.RetryUseless,
}

// The engine's focus through a sequence of inputs: each step's input, then the focus wanted.
func TestTheEngineDecidesTheFocus(t *testing.T) {
	type step struct {
		name string
		do   func(h *harness)
		want phase.Focus
	}
	submit := func(h *harness) { h.do(h.c.Submit("hello")) }
	fail := func(h *harness) { h.feed(errorUpdate("the server went away")) }
	failTooLong := func(h *harness) { h.end(wire.Result{Outcome: wire.OutcomeError, Err: tooLong}) }
	for _, tc := range []struct {
		name  string
		cfg   Config
		pipe  bool // the front end says it has no key to press Retry with
		steps []step
	}{
		{name: "a failure focuses Retry; Tab and Shift+Tab move between it and the composer", steps: []step{
			{"idle", func(*harness) {}, phase.FocusComposer},
			{"submit", submit, phase.FocusStop},
			{"fail", fail, phase.FocusRetry},
			{"tab", func(h *harness) { h.c.FocusComposer() }, phase.FocusComposer},
			{"shift+tab", func(h *harness) { h.c.FocusRetry() }, phase.FocusRetry},
			{"tab again", func(h *harness) { h.c.FocusComposer() }, phase.FocusComposer},
			{"retry leaves the error phase", func(h *harness) { h.do(h.c.Retry()) }, phase.FocusStop},
			{"the next failure starts at Retry", fail, phase.FocusRetry},
		}},
		{name: "a too-long conversation focuses the composer, Retry a Shift+Tab away", steps: []step{
			{"submit", submit, phase.FocusStop},
			{"fail too long", failTooLong, phase.FocusComposer},
			{"shift+tab", func(h *harness) { h.c.FocusRetry() }, phase.FocusRetry},
			{"tab", func(h *harness) { h.c.FocusComposer() }, phase.FocusComposer},
			{"a new message leaves the error phase", submit, phase.FocusStop},
			{"an ordinary failure focuses Retry", fail, phase.FocusRetry},
		}},
		{name: "outside the error phase the moves do nothing", steps: []step{
			{"tab while idle", func(h *harness) { h.c.FocusComposer() }, phase.FocusComposer},
			{"submit", submit, phase.FocusStop},
			{"tab while streaming", func(h *harness) { h.c.FocusComposer() }, phase.FocusStop},
			{"fail", fail, phase.FocusRetry},
		}},
		{name: "with no key to press Retry with, the error phase focuses the composer", pipe: true, steps: []step{
			{"submit", submit, phase.FocusStop},
			{"fail", fail, phase.FocusComposer},
			{"shift+tab cannot reach Retry", func(h *harness) { h.c.FocusRetry() }, phase.FocusComposer},
			{"a new message", submit, phase.FocusStop},
			{"fail too long", failTooLong, phase.FocusComposer},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.cfg)
			if tc.pipe {
				h.c.NoRetryKey()
			}
			for _, s := range tc.steps {
				s.do(h)
				if got := h.c.Focus(); got != s.want {
					t.Fatalf("after %s: focus %s, want %s (phase %s)", s.name, got, s.want, h.c.State.Phase)
				}
			}
		})
	}
}
