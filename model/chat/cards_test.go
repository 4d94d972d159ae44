package chat

import (
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// seen collects every status agree saw a card in.
var seen = map[phase.CallStatus]bool{}

// agree fails unless the step's entry has exactly one card per call of its state machine, in
// the machine's order, each holding the machine's snapshot of its call, whole.
func agree(t *testing.T, where string, st *step) {
	t.Helper()
	calls, cards := st.calls.List(), st.entry.Cards()
	if len(calls) != len(cards) {
		t.Fatalf("%s: %d calls, %d cards", where, len(calls), len(cards))
	}
	for i, call := range calls {
		c := cards[i]
		seen[call.Status] = true
		if c.ID() != call.ID || c.Name() != call.Name || c.Status() != call.Status || c.Args() != call.ArgsText {
			t.Fatalf("%s: card %s %q %s %q, call %s %q %s %q", where, c.ID(), c.Name(), c.Status(), c.Args(),
				call.ID, call.Name, call.Status, call.ArgsText)
		}
		if c.IsError() != call.Status.Failed() {
			t.Fatalf("%s: card %s IsError %v with status %s", where, c.ID(), c.IsError(), call.Status)
		}
		if !reflect.DeepEqual(c.Call(), call) {
			t.Fatalf("%s: card %s holds\n%+v\nthe machine has\n%+v", where, c.ID(), c.Call(), call)
		}
		if place, of := c.AskPlace(); place != call.AskPlace || of != call.AskOf || c.Asking() != (call.Status == phase.CallAsking) ||
			c.Declined() != (call.Status == phase.CallDeclined) || (c.Queued() > 0) != (call.Status == phase.CallQueued) ||
			c.Result() != call.Result.Output || c.Duration() != call.Result.Duration {
			t.Fatalf("%s: card %s reads otherwise than its call %+v", where, c.ID(), call)
		}
	}
}

// TestCardsFollowTheirCalls drives every transition of a tool call through the engine — and
// the events the machine ignores — and checks after each input that the cards show exactly
// the machine's state of their calls.
func TestCardsFollowTheirCalls(t *testing.T) {
	tools := fakeTools{sideEffects: map[string]bool{"write_note": true}}
	for _, tc := range []struct {
		name  string
		cfg   Config
		steps []func(h *harness)
		want  map[string]phase.CallStatus // the calls' final states
	}{
		{"pending, running, done", Config{Tools: tools}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("a", "now"))) },
			func(h *harness) { h.feed(toolFrame("now", delta("a", `{}`))) },
			func(h *harness) { h.feed(doneUpdate(ready("a"))) },
			func(h *harness) { h.toolDone("a", "noon", false) },
		}, map[string]phase.CallStatus{"a": phase.CallDone}},
		{"running, then the tool fails", Config{Tools: tools}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("a", "now"), ready("a"))) },
			func(h *harness) { h.toolDone("a", "boom", true) },
		}, map[string]phase.CallStatus{"a": phase.CallError}},
		{"arguments that are not JSON", Config{Tools: tools}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("a", "now"), delta("a", `{"x":`))) },
			func(h *harness) { h.feed(doneUpdate(ready("a"))) },
		}, map[string]phase.CallStatus{"a": phase.CallError}},
		{"no tools: refused", Config{}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("a", "now"), ready("a"))) },
		}, map[string]phase.CallStatus{"a": phase.CallError}},
		{"side effects and nobody to ask: refused", Config{Tools: tools}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("write_note", start("w", "write_note"), ready("w"))) },
		}, map[string]phase.CallStatus{"w": phase.CallError}},
		{"approval declined", Config{Tools: tools, CanAsk: true}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("write_note", start("w", "write_note"), ready("w"))) },
			func(h *harness) { h.do(h.c.Approve(Deny)) },
		}, map[string]phase.CallStatus{"w": phase.CallDeclined}},
		{"approvals waiting in order, one allowed, one declined", Config{Tools: tools, CanAsk: true}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("write_note", start("w1", "write_note"), ready("w1"))) },
			func(h *harness) { h.feed(toolFrame("write_note", start("w2", "write_note"), ready("w2"))) },
			func(h *harness) { h.do(h.c.Approve(Allow)) },
			func(h *harness) { h.do(h.c.Approve(Deny)) },
			func(h *harness) { h.toolDone("w1", "saved", false) },
		}, map[string]phase.CallStatus{"w1": phase.CallDone, "w2": phase.CallDeclined}},
		{"allowed always: the others of the tool run too", Config{Tools: tools, CanAsk: true}, []func(h *harness){
			func(h *harness) {
				h.feed(toolFrame("write_note", start("w1", "write_note"), ready("w1"), start("w2", "write_note"), ready("w2")))
			},
			func(h *harness) { h.do(h.c.Approve(AllowAlways)) },
			func(h *harness) { h.toolDone("w2", "saved", false) },
			func(h *harness) { h.toolDone("w1", "saved", false) },
		}, map[string]phase.CallStatus{"w1": phase.CallDone, "w2": phase.CallDone}},
		{"queued for a slot, then run", Config{Tools: tools, MaxTools: 1}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("a", "now"), ready("a"))) },
			func(h *harness) { h.feed(toolFrame("now", start("b", "now"), ready("b"))) },
			func(h *harness) { h.feed(toolFrame("now", start("c", "now"), ready("c"))) },
			func(h *harness) { h.toolDone("a", "noon", false) },
			func(h *harness) { h.toolDone("b", "noon", false) },
			func(h *harness) { h.toolDone("c", "noon", false) },
		}, map[string]phase.CallStatus{"a": phase.CallDone, "b": phase.CallDone, "c": phase.CallDone}},
		{"Stop interrupts queued calls", Config{Tools: tools, MaxTools: 1}, []func(h *harness){
			func(h *harness) {
				h.feed(toolFrame("now", start("a", "now"), ready("a"), start("b", "now"), ready("b")))
			},
			func(h *harness) { h.do(h.c.Stop()) },
		}, map[string]phase.CallStatus{"a": phase.CallInterrupted, "b": phase.CallInterrupted}},
		{"approval given", Config{Tools: tools, CanAsk: true}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("write_note", start("w", "write_note"), ready("w"))) },
			func(h *harness) { h.do(h.c.Approve(Allow)) },
			func(h *harness) { h.toolDone("w", "saved", false) },
		}, map[string]phase.CallStatus{"w": phase.CallDone}},
		{"ignored events change no card", Config{Tools: tools}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("a", "now"), start("a", "again"))) },
			func(h *harness) { h.toolDone("a", "too early", false) },
			func(h *harness) { h.feed(toolFrame("now", ready("a"), delta("a", "late"), ready("nobody"))) },
			func(h *harness) { h.toolDone("a", "noon", false) },
			func(h *harness) { h.toolDone("a", "twice", true) },
		}, map[string]phase.CallStatus{"a": phase.CallDone}},
		{"Stop interrupts pending, running and asking calls", Config{Tools: tools, CanAsk: true}, []func(h *harness){
			func(h *harness) {
				h.feed(toolFrame("now", start("p", "now"), start("r", "lookup"), ready("r"), start("w", "write_note"), ready("w")))
			},
			func(h *harness) { h.do(h.c.Stop()) },
		}, map[string]phase.CallStatus{"p": phase.CallInterrupted, "r": phase.CallInterrupted, "w": phase.CallInterrupted}},
		{"a failed request interrupts the calls", Config{Tools: tools}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("p", "now"), start("r", "lookup"), ready("r"))) },
			func(h *harness) { h.feed(errorUpdate("the server went away")) },
		}, map[string]phase.CallStatus{"p": phase.CallInterrupted, "r": phase.CallInterrupted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.cfg)
			h.do(h.c.Submit("go"))
			st := h.c.step
			for i, do := range tc.steps {
				do(h)
				agree(t, "after input "+string(rune('1'+i)), st)
			}
			for id, want := range tc.want {
				call, _ := st.calls.Get(id)
				if call.Status != want {
					t.Errorf("call %s is %s, want %s", id, call.Status, want)
				}
			}
		})
	}
	// Every state a card can be seen in between inputs was seen (ready is passed through
	// within one input: the call is asked about, queued, run or refused at once).
	for _, s := range []phase.CallStatus{phase.CallPending, phase.CallAsking, phase.CallQueued, phase.CallRunning,
		phase.CallDone, phase.CallError, phase.CallDeclined, phase.CallInterrupted} {
		if !seen[s] {
			t.Errorf("no input left a card %s", s)
		}
	}
}

// TestInterruptedCallsKeepTheHistoryValid: after Stop, the call still streaming and the one
// waiting for approval never ran and are dropped; the running one gets "stopped by the user".
func TestInterruptedCallsKeepTheHistoryValid(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{sideEffects: map[string]bool{"write_note": true}}, CanAsk: true})
	h.do(h.c.Submit("go"))
	h.feed(toolFrame("now", start("p", "now"), start("r", "lookup"), ready("r"), start("w", "write_note"), ready("w")))
	h.do(h.c.Stop())
	var got []wire.Message
	for _, m := range h.c.History {
		if m.Role != "user" {
			got = append(got, m)
		}
	}
	if len(got) != 2 || len(got[0].Calls()) != 1 || got[0].Calls()[0].ID != "r" ||
		got[1].ToolCallID != "r" || got[1].Text() != resultStopped {
		t.Fatalf("history after Stop: %+v", got)
	}
	entries := h.c.Entries()
	for _, c := range entries[len(entries)-1].Cards() {
		if c.Status() != phase.CallInterrupted || c.Result() != resultStopped {
			t.Errorf("card %s after Stop: %s %q", c.ID(), c.Status(), c.Result())
		}
	}
}
