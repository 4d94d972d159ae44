package view

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// everyCard is a reply with a card in each state a card can be in, text between them in wire
// order, and its third card focused.
func everyCard() *draft {
	stopped := phase.Interruption{Why: phase.CutByUser}
	d := &draft{Role: transcript.RoleAssistant, Streaming: true, Cards: []draftCard{
		{Name: "read_file", Status: phase.CallPending, ArgsBytes: 2048},
		{Name: "build", Status: phase.CallRunning, Summary: "target=all", Elapsed: 12 * time.Second, Output: "compiling a\ncompiling b\ncompiling c\nlinking\n"},
		{Name: "write_note", Status: phase.CallRunning, Summary: "text=milk", Asking: true, AskPlace: 1, AskOf: 2},
		{Name: "write_note", Status: phase.CallRunning, Summary: "text=eggs", Asking: true, AskPlace: 2, AskOf: 2},
		{Name: "now", Status: phase.CallDone, Result: "noon\n", Duration: 4 * time.Millisecond},
		{Name: "list_dir", Status: phase.CallError, Summary: "path=/nope", Result: "open /nope: no such file or directory", Duration: time.Millisecond},
		{Name: "delete_all", Status: phase.CallError, Summary: "path=.", Result: "The user declined to run this tool.", Declined: true},
		{Name: "sleep", Status: phase.CallInterrupted, Summary: "s=60", Result: stopped.Text()},
		{Name: "read_file", Status: phase.CallDone, Summary: "path=go.mod", Args: `{"path":"go.mod"}`, Result: "module x\n\ngo 1.24\n", Expanded: true, Duration: 2 * time.Millisecond},
	}}
	d.entry()
	d.tr.SetReply(d.e, "", "")
	return d
}

// TestEveryCardState draws a card in every state — pending, running with its time and output,
// asking first and waiting behind it, done, error, declined, stopped, expanded, focused — and a
// folded paste, in plain styles.
func TestEveryCardState(t *testing.T) {
	reply := everyCard()
	paste := &draft{Role: transcript.RoleUser, Text: strings.Repeat("pasted line\n", 300)}
	entries := []*draft{paste, reply}
	f := sceneFrame(reduce(submit, phase.Event{Kind: phase.KindTool, Tool: "build"}), phase.FocusStop, entries, streamingKeys)
	f.Width, f.Height = 80, 40
	reply.tr.MoveFocus(-7) // the third card: the question y answers
	f.Entries = []*transcript.Entry{paste.entry(), reply.e}
	scr := NewRenderer(PlainStyles()).Render(f)
	checkShape(t, scr.Content, f.Width, f.Height)
	for _, want := range []string{
		"› [pasted 300 lines · ctrl+o to expand]", "◌ pending", "◐ running · build · target=all · 12s", "│ linking",
		"▶ ? waiting for approval: 1 of 2", "◌ waiting: 2 of 2", "✓ done · now", "✗ error · list_dir",
		"○ declined · delete_all", "■ stopped · sleep", "      module x",
	} {
		if !strings.Contains(scr.Content, want) {
			t.Errorf("no %q on the screen", want)
		}
	}
	if strings.Contains(scr.Content, "compiling a") {
		t.Error("more than the last three output lines are shown")
	}
	golden.RequireEqual(t, []byte(scr.Content))
}

// TestAnExpandedCardTallerThanTheWindowStartsAtItsTop: revealing an expanded card longer than
// the transcript's window puts its first line at the window's top, and the rest is reached by
// scrolling down towards the tail.
func TestAnExpandedCardTallerThanTheWindowStartsAtItsTop(t *testing.T) {
	long := strings.Repeat("result line\n", 80)
	reply := &draft{Role: transcript.RoleAssistant, Text: "Here it is.", Cards: []draftCard{
		{Name: "read_file", Status: phase.CallDone, Summary: "path=big.txt", Result: long, Expanded: true},
	}}
	after := &draft{Role: transcript.RoleAssistant, Text: "That was the file."}
	f := sceneFrame(phase.State{}, phase.FocusComposer, []*draft{user(), reply, after}, idleKeys)
	f.Width, f.Height = 80, 24
	reply.tr.MoveFocus(-1)
	r := NewRenderer(PlainStyles())
	f.ScrollUp = r.Reveal(f, 1, 0)
	scr := r.Render(f)
	rows := strings.Split(scr.Content, "\n")
	if !strings.HasPrefix(rows[0], "▶ ✓ done · read_file") {
		t.Fatalf("the expanded card does not start at the window's top:\n%s", scr.Content)
	}
	golden.RequireEqual(t, []byte(scr.Content))
	if again := r.Reveal(f, 1, 0); again != f.ScrollUp {
		t.Fatalf("revealing what is shown scrolled from %d to %d", f.ScrollUp, again)
	}
	f.ScrollUp = 0
	if tail := r.Reveal(f, 2, -1); tail != 0 {
		t.Fatalf("revealing the last entry, in view at the tail, scrolled to %d", tail)
	}
}

// A prompt folded for its size rather than its lines says how big it is.
func TestAWidePasteSaysItsSize(t *testing.T) {
	paste := &draft{Role: transcript.RoleUser, Text: strings.Repeat("{\"k\":1},", 1024)}
	f := sceneFrame(phase.State{}, phase.FocusComposer, []*draft{paste}, idleKeys)
	f.Width = 80
	scr := NewRenderer(PlainStyles()).Render(f)
	if want := "› [pasted 1 line · 8.0\u00a0KiB · ctrl+o to expand]"; !strings.Contains(scr.Content, want) {
		t.Fatalf("no %q:\n%s", want, scr.Content)
	}
}
