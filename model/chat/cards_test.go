package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// agree fails unless the step's entry has exactly one card per call of its state machine, in
// the machine's order, each showing the call's status and name.
func agree(t *testing.T, where string, st *step) {
	t.Helper()
	calls, cards := st.calls.List(), st.entry.Cards()
	if len(calls) != len(cards) {
		t.Fatalf("%s: %d calls, %d cards", where, len(calls), len(cards))
	}
	for i, call := range calls {
		c := cards[i]
		if c.ID() != call.ID || c.Name() != call.Name || c.Status() != call.Status || c.Args() != call.ArgsText {
			t.Fatalf("%s: card %s %q %s %q, call %s %q %s %q", where, c.ID(), c.Name(), c.Status(), c.Args(),
				call.ID, call.Name, call.Status, call.ArgsText)
		}
		if c.IsError() != (call.Status == phase.CallError) {
			t.Fatalf("%s: card %s IsError %v with status %s", where, c.ID(), c.IsError(), call.Status)
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
		}, map[string]phase.CallStatus{"w": phase.CallError}},
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
		}, map[string]phase.CallStatus{"p": phase.CallError, "r": phase.CallError, "w": phase.CallError}},
		{"a failed request interrupts the calls", Config{Tools: tools}, []func(h *harness){
			func(h *harness) { h.feed(toolFrame("now", start("p", "now"), start("r", "lookup"), ready("r"))) },
			func(h *harness) { h.feed(errorUpdate("the server went away")) },
		}, map[string]phase.CallStatus{"p": phase.CallError, "r": phase.CallError}},
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
	if len(got) != 2 || len(got[0].ToolCalls) != 1 || got[0].ToolCalls[0].ID != "r" ||
		got[1].ToolCallID != "r" || got[1].Content != resultStopped {
		t.Fatalf("history after Stop: %+v", got)
	}
	entries := h.c.Entries()
	for _, c := range entries[len(entries)-1].Cards() {
		if c.Status() != phase.CallError || c.Result() != resultStopped {
			t.Errorf("card %s after Stop: %s %q", c.ID(), c.Status(), c.Result())
		}
	}
}
