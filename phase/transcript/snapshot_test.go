package transcript

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// A snapshot keeps the entry as it was: neither the entry's text, nor its cards, nor its
// focus or folding change it afterwards.
func TestSnapshotIsNotReachedByLaterChanges(t *testing.T) {
	var tr Transcript
	e := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
	tr.SetReply(e, "before", "why")
	tr.SetCall(e, phase.ToolCall{ID: "c1", Name: "now", Status: phase.CallRunning})
	if tr.MoveFocus(-1); e.FocusedCard() != 0 {
		t.Fatal("the card was not focused")
	}
	snap := e.Snapshot()
	if snap == e || snap.Text() != "before" || len(snap.Cards()) != 1 || snap.Version() != e.Version() || snap.FocusedCard() != e.FocusedCard() {
		t.Fatalf("the snapshot is not the entry as it was: %+v", snap)
	}

	tr.SetReply(e, "before and after", "why")
	tr.SetCall(e, phase.ToolCall{ID: "c1", Name: "now", Status: phase.CallDone, Result: phase.ToolResult{Output: "noon"}})
	tr.SetCall(e, phase.ToolCall{ID: "c2", Name: "later", Status: phase.CallPending})
	tr.ToggleCard(e, 0)
	tr.ToggleReasoning(e)
	tr.ClearFocus()
	tr.EndStreaming(e)

	if snap.Text() != "before" || len(snap.Parts()) != 2 || !snap.Streaming() || snap.Expanded() {
		t.Fatalf("the entry's text or state reached the snapshot: %q, %d parts", snap.Text(), len(snap.Parts()))
	}
	if cards := snap.Cards(); len(cards) != 1 || cards[0].Status() != phase.CallRunning || cards[0].Expanded() {
		t.Fatalf("the entry's cards reached the snapshot: %+v", cards)
	}
	if snap.FocusedCard() != 0 {
		t.Fatal("clearing the focus reached the snapshot")
	}
}
