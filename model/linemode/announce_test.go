package linemode

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// fake is a hand-driven engine: a state and a transcript that steps change in place, the way
// the engine changes its entries.
type fake struct {
	st phase.State
	d  drafts
}

func (f *fake) reply() *draft { return f.d.last() }

// entries publishes the drafts: the transcript as the engine would hand it over now.
func (f *fake) entries() []*transcript.Entry { return f.d.publish() }

// follow publishes the drafts and returns a reader of the transcript's changes from then on.
func (f *fake) follow() *transcript.Reader {
	f.d.publish()
	return f.d.tr.Follow()
}

// submit opens a new reply, as the engine's request does.
func (f *fake) submit() {
	f.d.add(&draft{Role: transcript.RoleUser, Text: "question"})
	f.d.add(&draft{Role: transcript.RoleAssistant, Streaming: true})
	f.st = phase.State{Phase: phase.StreamingText}
}

func (f *fake) text(d string)     { f.reply().Text += d; f.st.Phase = phase.StreamingText }
func (f *fake) end(p phase.Phase) { f.reply().Streaming = false; f.st = phase.State{Phase: p} }

// announce publishes the drafts and returns what the announcer says of the change.
func (a *Announcer) announce(f *fake) []string {
	f.entries()
	return a.Announce(f.st)
}

type announceStep struct {
	do   func(f *fake)
	want []string
}

func runSteps(t *testing.T, steps []announceStep) {
	t.Helper()
	f := &fake{}
	a := NewAnnouncer(f.st, f.follow())
	for i, s := range steps {
		s.do(f)
		f.entries()
		got := a.Announce(f.st)
		if !reflect.DeepEqual(got, s.want) && !(len(got) == 0 && len(s.want) == 0) {
			t.Fatalf("step %d: lines\n%q\nwant\n%q", i, got, s.want)
		}
	}
}

const writing = "Status: Writing a reply. Esc stops generating."

func TestAnnounceText(t *testing.T) {
	for name, steps := range map[string][]announceStep{
		"a reply resuming after a tool line is prefixed again, blank lines skipped": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.text("Looking.\n") }, []string{"Assistant: Looking."}},
			{func(f *fake) { f.card(0).Name, f.card(0).Status = "now", phase.CallRunning }, []string{"Tool: now started"}},
			{func(f *fake) { f.text("\nStill here.\nMore.\n") }, []string{"Assistant: Still here.", "More."}},
		},
		"lines flush at their ends, the tail at the end": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.text("Hel") }, nil},
			{func(f *fake) { f.text("lo\nwor") }, []string{"Assistant: Hello"}},
			{func(f *fake) { f.text("ld  \n\n\tBye") }, []string{"world", ""}},
			{func(f *fake) { f.text(" now") }, nil},
			{func(f *fake) { f.end(phase.Complete) }, []string{"\tBye now", "Status: Answer ready."}},
			{func(f *fake) {}, nil},
		},
		"leading blank lines are skipped, the prefix goes on the first words": {
			{func(f *fake) { f.submit(); f.text("\n  \n") }, []string{writing}},
			{func(f *fake) { f.text("First\n") }, []string{"Assistant: First"}},
			{func(f *fake) { f.end(phase.Complete) }, []string{"Status: Answer ready."}},
		},
		"a reply with no text says nothing but its status": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.end(phase.Complete) }, []string{"Status: Answer ready."}},
		},
		"stopped: the partial reply is printed, then the status": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.text("drip1 drip2 ") }, nil},
			{func(f *fake) { f.reply().Mark = transcript.MarkStopped; f.end(phase.Complete); f.st.Stopped = true },
				[]string{"Assistant: drip1 drip2", "Status: Stopped. The partial reply is kept."}},
		},
		"error: the partial reply stays, the status says what went wrong without JSON": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.text("Here is the start") }, nil},
			{func(f *fake) {
				f.end(phase.Error)
				f.st.Reason = `HTTP 500: {"error": "[DONE] missing"}`
			}, []string{"Assistant: Here is the start", "Status: HTTP 500: ('error': 'DONE missing'). Retry is available: Enter retries, Tab goes to the composer."}},
		},
		"reasoning is counted, never read out": {
			{func(f *fake) { f.submit(); f.reply().Reasoning = strings.Repeat("é", 1234) }, []string{writing}},
			{func(f *fake) { f.text("Answer.") }, nil},
			{func(f *fake) { f.end(phase.Complete) }, []string{"Assistant: Answer.", "Reasoning: 1,234 characters (not read out).", "Status: Answer ready."}},
		},
		"one character of reasoning": {
			{func(f *fake) { f.submit(); f.reply().Reasoning = "x"; f.end(phase.Complete) },
				[]string{"Reasoning: 1 character (not read out).", "Status: Answer ready."}},
		},
		"the tail is printed before a status line, so the order holds; the reply resumes with its prefix": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.text("Let me check.") }, nil},
			{func(f *fake) { f.st.Phase, f.st.Tool = phase.StreamingTool, "now" },
				[]string{"Assistant: Let me check.", "Status: Working on now. Esc stops generating."}},
			{func(f *fake) { f.text(" Done.\n") }, []string{"Assistant: Done.", writing}},
		},
		"the end of a cut line is not an empty line": {
			{func(f *fake) { f.submit() }, []string{writing}},
			{func(f *fake) { f.text("Checking.") }, nil},
			{func(f *fake) { f.st.Phase, f.st.Tool = phase.StreamingTool, "now" },
				[]string{"Assistant: Checking.", "Status: Working on now. Esc stops generating."}},
			{func(f *fake) { f.text("\nNext\n") }, []string{"Assistant: Next", writing}},
		},
		"a blank tail is not printed before a status line": {
			{func(f *fake) { f.submit(); f.text("Line\n  ") }, []string{"Assistant: Line", writing}},
			{func(f *fake) { f.st.Phase, f.st.Tool = phase.StreamingTool, "now" }, []string{"Status: Working on now. Esc stops generating."}},
		},
		"text replaced by a shorter one is read again from its start": {
			{func(f *fake) { f.submit(); f.text("old line\n") }, []string{"Assistant: old line", writing}},
			{func(f *fake) { f.reply().Text = "new\n" }, []string{"Assistant: new"}},
		},
	} {
		t.Run(name, func(t *testing.T) { runSteps(t, steps) })
	}
}

func TestAnnounceNotices(t *testing.T) {
	runSteps(t, []announceStep{
		{func(f *fake) { f.submit() }, []string{writing}},
		{func(f *fake) {
			f.text("Last words")
			f.end(phase.Complete)
			f.d.add(&draft{Role: transcript.RoleNotice, Text: "Stopped after 8 steps (--max-steps 8).\nSend a message."})
		}, []string{"Assistant: Last words", "Note: Stopped after 8 steps (--max-steps 8).⏎Send a message.", "Status: Answer ready."}},
	})
}

func TestAnnounceSkipsWhatWasThereBefore(t *testing.T) {
	var d drafts
	d.add(&draft{Role: transcript.RoleUser, Text: "hi"})
	d.add(&draft{Role: transcript.RoleAssistant, Text: "hello\nthere", Reasoning: "hmm", Cards: []draftCard{{Name: "now", Status: phase.CallDone, Result: "12:00"}}})
	d.add(&draft{Role: transcript.RoleNotice, Text: "resumed"})
	d.publish()
	a := NewAnnouncer(phase.State{Phase: phase.Idle}, d.tr.Follow())
	if got := a.Announce(phase.State{Phase: phase.Idle}); len(got) != 0 {
		t.Fatalf("a resumed transcript was read out again: %q", got)
	}
	d.add(&draft{Role: transcript.RoleUser, Text: "next"})
	d.add(&draft{Role: transcript.RoleAssistant, Streaming: true, Text: "new\n"})
	d.publish()
	want := []string{"Assistant: new", writing}
	if got := a.Announce(phase.State{Phase: phase.StreamingText}); !reflect.DeepEqual(got, want) {
		t.Fatalf("after resuming: %q, want %q", got, want)
	}
}

// TestAnnounceOneStatusPerPhaseChange walks every pair of phases: a Status line exactly when
// the phase changes, whatever else changes (tool name, text) in the same call.
func TestAnnounceOneStatusPerPhaseChange(t *testing.T) {
	for _, from := range phase.Phases {
		for _, to := range phase.Phases {
			a := NewAnnouncer(phase.State{Phase: from, Tool: "first"}, nil)
			got := a.Announce(phase.State{Phase: to, Tool: "second"})
			want := 0
			if from != to {
				want = 1
			}
			if len(got) != want {
				t.Errorf("%s -> %s: %q, want %d status line(s)", from, to, got, want)
			}
			for _, l := range got {
				if !strings.HasPrefix(l, "Status: ") {
					t.Errorf("%s -> %s: %q is not a status line", from, to, l)
				}
			}
			if again := a.Announce(phase.State{Phase: to, Tool: "third"}); len(again) != 0 {
				t.Errorf("%s -> %s: repeated with a new tool name: %q", from, to, again)
			}
		}
	}
}

func TestSpeakHelpers(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{format.Thousands(0), "0"},
		{format.Thousands(999), "999"},
		{format.Thousands(1000), "1,000"},
		{format.Thousands(1234567), "1,234,567"},
		{format.SpokenDuration(0), "0 ms"},
		{format.SpokenDuration(12*time.Millisecond + 900*time.Microsecond), "12 ms"},
		{format.SpokenDuration(9999 * time.Millisecond), "9999 ms"},
		{format.SpokenDuration(12340 * time.Millisecond), "12.3 s"},
		{spoken(` {"a": [1, 2]} `), "'a': 1, 2"},
		{spoken("tab\there\nnext \x1b[2J"), "tab here⏎next ␛2J"},
		{firstSpokenLine("\n \n  first {x}\nsecond"), "first x"},
		{firstSpokenLine(""), ""},
		{firstSpokenLine(strings.Repeat("é", 100)), strings.Repeat("é", 100)},
		{firstSpokenLine(strings.Repeat("é", 101)), strings.Repeat("é", 99) + "…"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// Replies the transcript drops are forgotten: a reply added where one was removed is read out
// from its start, and the dropped one says nothing more.
func TestAnnounceForgetsRemovedEntries(t *testing.T) {
	var d drafts
	st := phase.State{Phase: phase.StreamingText}
	a := NewAnnouncer(st, d.tr.Follow())
	old := d.add(&draft{Role: transcript.RoleAssistant, Streaming: true, Text: "old\n"})
	d.publish()
	if got, want := a.Announce(st), []string{"Assistant: old"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("first reply: %q, want %q", got, want)
	}
	old.Text += "gone line\n"
	d.publish()
	d.tr.Truncate(0)
	d.list, old.e = nil, nil
	d.add(&draft{Role: transcript.RoleAssistant, Streaming: true, Text: "new\n"})
	d.publish()
	if got, want := a.Announce(st), []string{"Assistant: new"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after the first was removed: %q, want %q", got, want)
	}
}
