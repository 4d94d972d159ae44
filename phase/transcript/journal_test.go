package transcript

import (
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// Each method that changes what the conversation says journals one change naming the entry
// (and card); those that change only how it looks journal nothing.
func TestJournalRecordsEachChange(t *testing.T) {
	var tr Transcript
	prompt := tr.Add(Spec{Role: RoleUser, Text: "hi"})
	e := tr.Add(Spec{Role: RoleAssistant, Streaming: true, Reasoning: "r"})
	r := tr.Follow()
	call := phase.ToolCall{ID: "c1", Name: "now", Status: phase.CallRunning}
	for _, tc := range []struct {
		name   string
		change func()
		want   []Change
	}{
		{"nothing yet", func() {}, nil},
		{"text", func() { tr.SetReply(e, "a", "r") }, []Change{{TextChanged, e, 1, -1}}},
		{"same text", func() { tr.SetReply(e, "a", "r") }, nil},
		{"reasoning", func() { tr.SetReply(e, "a", "rr") }, []Change{{TextChanged, e, 1, -1}}},
		{"card added", func() { tr.SetCall(e, call) }, []Change{{CardChanged, e, 1, 0}}},
		{"same snapshot", func() { tr.SetCall(e, call) }, nil},
		{"second card, then summary of the first", func() {
			tr.SetCall(e, phase.ToolCall{ID: "c2", Status: phase.CallPending})
			tr.SetSummary(e, "c1", "x=1")
		}, []Change{{CardChanged, e, 1, 1}, {CardChanged, e, 1, 0}}},
		{"elapsed and output", func() {
			tr.SetElapsed(e, "c1", 2e9)
			tr.SetOutput(e, "c1", "line")
		}, []Change{{CardChanged, e, 1, 0}}},
		{"shown only: toggles and focus", func() {
			tr.ToggleCard(e, 0)
			tr.ToggleReasoning(e)
			tr.MoveFocus(-1)
			tr.ClearFocus()
		}, nil},
		{"finished and ended", func() {
			tr.EndStreaming(e)
			tr.SetEnd(e, phase.End{Why: phase.EndFailed, Note: "x"})
		}, []Change{{EntryFinished, e, 1, -1}, {EndChanged, e, 1, -1}}},
		{"finished again", func() { tr.EndStreaming(e) }, nil},
		{"removed", func() { tr.Truncate(1) }, []Change{{EntriesRemoved, nil, 1, -1}}},
		{"removing nothing", func() { tr.Truncate(5) }, nil},
	} {
		tc.change()
		if got := r.Changes(); !reflect.DeepEqual(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Fatalf("%s: changes %+v, want %+v", tc.name, got, tc.want)
		}
	}
	n := tr.Add(Spec{Role: RoleNotice, Text: "n"})
	if got, want := r.Changes(), []Change{{EntryAdded, n, 1, -1}}; !reflect.DeepEqual(got, want) || prompt.index != 0 {
		t.Fatalf("added where the removed one was: %+v, want %+v", got, want)
	}
}

// A burst of changes to the same thing read once is one change; a change a reader has read
// is journalled again when it happens again.
func TestJournalCoalescesUnreadRepeats(t *testing.T) {
	var tr Transcript
	r := tr.Follow()
	e := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
	for _, d := range []string{"a", "ab", "abc"} {
		tr.SetReply(e, d, "")
	}
	want := []Change{{EntryAdded, e, 0, -1}, {TextChanged, e, 0, -1}}
	if got := r.Changes(); !reflect.DeepEqual(got, want) {
		t.Fatalf("changes %+v, want %+v", got, want)
	}
	tr.SetReply(e, "abcd", "")
	if got := r.Changes(); len(got) != 1 || got[0].Kind != TextChanged {
		t.Fatalf("a read change did not come again: %+v", got)
	}
}

// Readers read independently; the journal keeps only what some open reader has not read, and
// nothing once all have read or closed.
func TestJournalKeepsOnlyTheUnread(t *testing.T) {
	var tr Transcript
	e := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
	tr.SetReply(e, "not journalled: nobody follows yet", "")
	if len(tr.journal.log) != 0 {
		t.Fatalf("journalled with no reader: %+v", tr.journal.log)
	}
	fast, slow := tr.Follow(), tr.Follow()
	tr.SetCall(e, phase.ToolCall{ID: "a"})
	tr.SetCall(e, phase.ToolCall{ID: "b"})
	if got := fast.Changes(); len(got) != 2 {
		t.Fatalf("fast read %+v", got)
	}
	tr.SetCall(e, phase.ToolCall{ID: "c"})
	if got := slow.Changes(); len(got) != 3 || got[2].Card != 2 {
		t.Fatalf("slow read %+v", got)
	}
	if n := len(tr.journal.log); n != 1 {
		t.Fatalf("the journal keeps %d changes, want the one fast has not read", n)
	}
	if got := fast.Changes(); len(got) != 1 || got[0].Card != 2 {
		t.Fatalf("fast read %+v", got)
	}
	if n := len(tr.journal.log); n != 0 {
		t.Fatalf("the journal keeps %d changes all have read", n)
	}
	slow.Close()
	tr.SetReply(e, "more", "")
	fast.Close()
	if n := len(tr.journal.log); n != 0 || len(tr.journal.readers) != 0 {
		t.Fatalf("closed readers keep %d changes and %d readers", n, len(tr.journal.readers))
	}
	if got := fast.Changes(); got != nil {
		t.Fatalf("a closed reader read %+v", got)
	}
}

// A reader that reads after every change makes the journal allocate nothing once warm.
func TestJournalReadEachTimeAllocatesNothing(t *testing.T) {
	var tr Transcript
	e := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
	r := tr.Follow()
	text := "a"
	tr.SetReply(e, text, "")
	r.Changes()
	allocs := testing.AllocsPerRun(100, func() {
		tr.SetElapsed(e, "none", 0) // no such card: nothing
		tr.SetReply(e, text, "x")
		tr.SetReply(e, text, "")
		if len(r.Changes()) != 1 {
			t.Fatal("the two text changes were not one")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per change read", allocs)
	}
}
