package transcript

import (
	"testing"
	"time"

	"github.com/phasechat/phasechat/phase"
)

// Every change bumps the changed entry's version, and only that entry's.
func TestEveryChangeBumpsItsEntry(t *testing.T) {
	var tr Transcript
	other := tr.Add(Spec{Role: RoleUser, Text: "hi"})
	e := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
	call := phase.ToolCall{ID: "c1", Name: "now", Status: phase.CallPending}
	for _, tc := range []struct {
		name   string
		change func()
		check  func() bool
	}{
		{"reply", func() { tr.SetReply(e, "text", "why") }, func() bool { return e.Text() == "text" && e.Reasoning() == "why" }},
		{"card added", func() { tr.SetCall(e, call) }, func() bool { return len(e.Cards()) == 1 && e.Cards()[0].Status() == phase.CallPending }},
		{"card's call", func() { call.Status = phase.CallRunning; tr.SetCall(e, call) }, func() bool { return e.Cards()[0].Status() == phase.CallRunning }},
		{"summary", func() { tr.SetSummary(e, "c1", "x=1") }, func() bool { return e.Cards()[0].Summary() == "x=1" }},
		{"asking", func() { call.Status = phase.CallAsking; tr.SetCall(e, call) }, func() bool { return e.Cards()[0].Asking() }},
		{"result", func() {
			call.Status, call.Result = phase.CallDone, phase.ToolResult{Output: "noon", Duration: 5}
			tr.SetCall(e, call)
		}, func() bool { return e.Cards()[0].Result() == "noon" && e.Cards()[0].Duration() == 5 }},
		{"card toggled", func() { tr.ToggleCard(e, 0) }, func() bool { return e.Cards()[0].Expanded() }},
		{"reasoning toggled", func() { tr.ToggleReasoning(e) }, func() bool { return e.Expanded() }},
		{"end", func() { tr.SetEnd(e, phase.End{Why: phase.EndStopped, Note: "why"}) }, func() bool { return e.Mark() == MarkStopped && e.Note() == "why" }},
		{"streaming ended", func() { tr.EndStreaming(e) }, func() bool { return !e.Streaming() }},
	} {
		before, untouched := e.Version(), other.Version()
		tc.change()
		if e.Version() <= before || !tc.check() {
			t.Errorf("%s: version %d → %d, applied %v", tc.name, before, e.Version(), tc.check())
		}
		if other.Version() != untouched {
			t.Errorf("%s: bumped another entry", tc.name)
		}
	}
	if got := tr.Entries(); len(got) != 2 || got[0] != other || got[1] != e || tr.Last() != e {
		t.Fatalf("entries %v", got)
	}
	tr.Truncate(1)
	if tr.Len() != 1 || tr.Last() != other {
		t.Fatalf("after Truncate(1): %d entries", tr.Len())
	}
}

// A card of a call the entry does not have is not created by anything but SetCall.
func TestChangesToAnUnknownCardDoNothing(t *testing.T) {
	var tr Transcript
	e := tr.Add(Spec{Role: RoleAssistant})
	v := e.Version()
	tr.SetSummary(e, "nobody", "x")
	tr.SetElapsed(e, "nobody", time.Second)
	tr.SetOutput(e, "nobody", "x")
	if len(e.Cards()) != 0 || e.Version() != v {
		t.Fatalf("cards %d, version %d → %d", len(e.Cards()), v, e.Version())
	}
}
