package chat

import (
	"github.com/phasechat/phasechat/phase"
	"testing"
)

// runIDs are the ids of the calls effects start.
func runIDs(effects []Effect) []string {
	var ids []string
	for _, r := range effectsOf[RunTool](effects) {
		ids = append(ids, r.Call.ID)
	}
	return ids
}

// queuedCards maps each card of the step's entry to what it says about waiting for a slot.
func queuedCards(st *step) map[string]int {
	out := map[string]int{}
	for _, c := range st.entry.Cards() {
		out[c.ID()] = c.Queued()
	}
	return out
}

// TestToolsPastTheBoundWaitQueued: with MaxTools 2, five ready calls start two tools; the
// other three are queued (their cards say so, naming the tools running) and start one by one,
// oldest first, as running ones end. Time starts only when a call starts: no RunTool, no clock.
func TestToolsPastTheBoundWaitQueued(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{}, MaxTools: 2})
	h.do(h.c.Submit("go"))
	st := h.c.step
	ids := []string{"a", "b", "c", "d", "e"}
	var started []string
	for _, id := range ids {
		started = append(started, runIDs(h.feed(toolFrame("now", start(id, "now"), ready(id))))...)
	}
	if got := []string{"a", "b"}; len(started) != 2 || started[0] != got[0] || started[1] != got[1] {
		t.Fatalf("started %v, want %v", started, got)
	}
	want := map[string]int{"a": 0, "b": 0, "c": 2, "d": 2, "e": 2}
	if got := queuedCards(st); !equalMaps(got, want) {
		t.Fatalf("queued cards %v, want %v", got, want)
	}
	h.end(complete(nil))
	if got := runIDs(h.toolDone("a", "noon", false)); len(got) != 1 || got[0] != "c" {
		t.Fatalf("after a ended, started %v, want [c]", got)
	}
	if q := queuedCards(st)["c"]; q != 0 {
		t.Fatalf("c started but its card says queued behind %d", q)
	}
	if got := runIDs(h.toolDone("a", "again", false)); len(got) != 0 {
		t.Fatalf("a second result of a started %v", got)
	}
	if got := runIDs(h.toolDone("b", "noon", true)); len(got) != 1 || got[0] != "d" {
		t.Fatalf("after b failed, started %v, want [d]", got)
	}
	if got := runIDs(h.toolDone("c", "noon", false)); len(got) != 1 || got[0] != "e" {
		t.Fatalf("after c ended, started %v, want [e]", got)
	}
	h.toolDone("d", "noon", false)
	next := h.toolDone("e", "noon", false)
	if len(effectsOf[OpenStream](next)) != 1 {
		t.Fatalf("every call is over but the next request did not go out: %#v", next)
	}
}

// TestStopEndsQueuedCallsUnrun: Stop while calls are queued ends them without running them,
// their cards stop saying queued, and they stay out of the history.
func TestStopEndsQueuedCallsUnrun(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{}, MaxTools: 1})
	h.do(h.c.Submit("go"))
	st := h.c.step
	h.feed(toolFrame("now", start("a", "now"), ready("a"), start("b", "now"), ready("b")))
	h.end(complete(nil))
	h.do(h.c.Stop())
	if q := queuedCards(st)["b"]; q != 0 {
		t.Fatalf("b was stopped but its card says queued behind %d", q)
	}
	if got := runIDs(h.c.HandleToolDone(ToolDoneMsg{Req: st.id, CallID: "a", Result: phase.ToolResult{Output: "late"}})); len(got) != 0 {
		t.Fatalf("a stopped step started %v", got)
	}
	for _, m := range h.c.History {
		for _, tc := range m.Calls() {
			if tc.ID == "b" {
				t.Fatalf("the queued call that never ran is in the history: %+v", m)
			}
		}
		if m.Role == "tool" && m.ToolCallID == "b" {
			t.Fatalf("the queued call that never ran has a result in the history: %+v", m)
		}
	}
}

func equalMaps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
