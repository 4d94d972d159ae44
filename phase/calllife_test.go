package phase

import (
	"reflect"
	"testing"
	"time"
)

// into drives a new call "a" (arguments {}) to status s.
func into(s CallStatus) *ToolCalls {
	evs := []CallEvent{start("a", "t"), delta("a", "{}")}
	switch s {
	case CallPending:
	case CallArgsReady:
		evs = append(evs, ready("a"))
	case CallAsking:
		evs = append(evs, ready("a"), CallEvent{Type: CallAsk, ID: "a"})
	case CallQueued:
		evs = append(evs, ready("a"), CallEvent{Type: CallQueue, ID: "a"})
	case CallRunning:
		evs = append(evs, ready("a"), run("a"))
	case CallDone:
		evs = append(evs, ready("a"), run("a"), result("a", "r"))
	case CallError:
		evs = append(evs, ready("a"), run("a"), failed("a", "boom"))
	case CallDeclined:
		evs = append(evs, ready("a"), CallEvent{Type: CallAsk, ID: "a"}, CallEvent{Type: CallDecline, ID: "a"})
	case CallInterrupted:
		evs = append(evs, interrupt("a", CutByUser))
	}
	return apply(evs...)
}

var allStatuses = []CallStatus{CallPending, CallArgsReady, CallAsking, CallQueued, CallRunning, CallDone, CallError, CallDeclined, CallInterrupted}

// Every (state, event) pair of one call's life: the state it moves to, or, for a pair not in
// the table, no change at all (docs/architecture.md, Tool calls).
func TestCallLifeTable(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	events := map[CallEventType]CallEvent{
		CallStart:     start("a", "other"),
		CallDelta:     delta("a", "x"),
		CallReady:     ready("a"),
		CallAsk:       {Type: CallAsk, ID: "a"},
		CallQueue:     {Type: CallQueue, ID: "a"},
		CallRun:       {Type: CallRun, ID: "a", At: at},
		CallResult:    result("a", "out"),
		CallRefuse:    {Type: CallRefuse, ID: "a", NotRun: NotRunNoTools},
		CallDecline:   {Type: CallDecline, ID: "a"},
		CallInterrupt: interrupt("a", CutServerStalled),
	}
	moves := map[CallStatus]map[CallEventType]CallStatus{
		CallPending:   {CallReady: CallArgsReady, CallInterrupt: CallInterrupted},
		CallArgsReady: {CallAsk: CallAsking, CallQueue: CallQueued, CallRun: CallRunning, CallRefuse: CallError, CallInterrupt: CallInterrupted},
		CallAsking:    {CallQueue: CallQueued, CallRun: CallRunning, CallDecline: CallDeclined, CallInterrupt: CallInterrupted},
		CallQueued:    {CallRun: CallRunning, CallInterrupt: CallInterrupted},
		CallRunning:   {CallResult: CallDone, CallInterrupt: CallInterrupted},
	}
	for _, from := range allStatuses {
		for typ, ev := range events {
			t.Run(string(from)+"+"+string(typ), func(t *testing.T) {
				m := into(from)
				before := mustGet(t, m, "a")
				if before.Status != from {
					t.Fatalf("set up %s, got %s", from, before.Status)
				}
				m.Apply(ev)
				got := mustGet(t, m, "a")
				to, moves := moves[from][typ]
				switch {
				case from == CallPending && typ == CallDelta:
					if got.Status != CallPending || got.ArgsText != "{}x" {
						t.Fatalf("a delta while pending: %+v", got)
					}
				case !moves:
					if !reflect.DeepEqual(got, before) {
						t.Fatalf("%s + %s is not in the table but changed the call:\n%+v\n%+v", from, typ, before, got)
					}
				case got.Status != to:
					t.Fatalf("%s + %s gave %s, want %s", from, typ, got.Status, to)
				}
			})
		}
	}
}

// What each final state says, and what the model is given for it.
func TestCallLifeResults(t *testing.T) {
	m := into(CallRunning)
	m.Apply(CallEvent{Type: CallResult, ID: "a", Result: ToolResult{Output: "noon", Duration: 5}})
	if c := mustGet(t, m, "a"); c.Result != (ToolResult{Output: "noon", Duration: 5}) || !c.Answered() {
		t.Errorf("done: %+v", c)
	}
	m = into(CallArgsReady)
	m.Apply(CallEvent{Type: CallRefuse, ID: "a", Result: ToolResult{Output: "unknown tool"}})
	if c := mustGet(t, m, "a"); c.Status != CallError || c.Result != (ToolResult{Output: "unknown tool", IsError: true}) || !c.Answered() {
		t.Errorf("refused with words: %+v", c)
	}
	m = into(CallArgsReady)
	m.Apply(CallEvent{Type: CallRefuse, ID: "a", NotRun: NotRunNoApprover})
	if c := mustGet(t, m, "a"); c.NotRun != NotRunNoApprover || c.Result.Output != NotRunNoApprover.Text() || !c.Result.IsError {
		t.Errorf("refused for a reason: %+v", c)
	}
	if c := mustGet(t, into(CallDeclined), "a"); c.NotRun != NotRunDeclined || c.Result.Output != "The user declined to run this tool." || !c.Answered() || !c.Status.Failed() {
		t.Errorf("declined: %+v", c)
	}
	for _, from := range []CallStatus{CallPending, CallArgsReady, CallAsking, CallQueued, CallRunning} {
		m := into(from)
		m.Apply(interrupt("a", CutRequestFailed))
		c := mustGet(t, m, "a")
		want := Interruption{Why: CutRequestFailed, Stage: from}
		if c.Interruption != want || c.Result.Output != want.Text() || !c.Result.IsError || c.Answered() != (from == CallRunning) {
			t.Errorf("interrupted while %s: %+v", from, c)
		}
	}
}

// The machine keeps the approvals waiting in order, the queued calls in order, and counts
// the running ones; each snapshot says its place.
func TestCallQueues(t *testing.T) {
	m := apply(start("a", "t"), start("b", "t"), start("c", "t"), start("d", "t"), ready("a"), ready("b"), ready("c"), ready("d"),
		CallEvent{Type: CallAsk, ID: "a"}, CallEvent{Type: CallAsk, ID: "b"}, CallEvent{Type: CallAsk, ID: "c"})
	if asked, _ := m.Asking(); asked.ID != "a" || asked.AskPlace != 1 || asked.AskOf != 3 {
		t.Fatalf("asked %+v", asked)
	}
	if c := mustGet(t, m, "c"); c.AskPlace != 3 || c.AskOf != 3 {
		t.Fatalf("third waiting: %+v", c)
	}
	m.Apply(CallEvent{Type: CallDecline, ID: "a"})
	m.Apply(run("d"))
	m.Apply(CallEvent{Type: CallQueue, ID: "b"})
	if got := m.AskingIDs(); !reflect.DeepEqual(got, []string{"c"}) {
		t.Fatalf("asking %v", got)
	}
	if c := mustGet(t, m, "b"); c.Status != CallQueued || c.QueuedBehind != 1 || c.AskPlace != 0 {
		t.Fatalf("queued: %+v", c)
	}
	if w := m.Waiting(); len(w) != 2 || w[0].ID != "c" || w[0].AskPlace != 1 || w[0].AskOf != 1 || w[1].ID != "b" || w[1].QueuedBehind != 1 {
		t.Fatalf("waiting %+v", w)
	}
	if next, _ := m.NextQueued(); next.ID != "b" || m.Running() != 1 {
		t.Fatalf("next queued %+v, running %d", next, m.Running())
	}
	m.Apply(result("d", "ok"))
	if m.Running() != 0 {
		t.Fatalf("running %d after the result", m.Running())
	}
	m.Interrupt(Interruption{Why: CutByUser})
	if _, asking := m.Asking(); asking || m.Running() != 0 {
		t.Fatal("an interruption left a question or a running call")
	}
	if _, ok := m.NextQueued(); ok {
		t.Fatal("an interruption left a queued call")
	}
	if _, busy := m.Outstanding(); busy {
		t.Fatal("an interruption left a call unfinished")
	}
}
