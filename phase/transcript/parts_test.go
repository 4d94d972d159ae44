package transcript

import (
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/phase"
)

// layout writes an entry's parts as "t:<text>" and "c:<call id>", in order.
func layout(e *Entry) string {
	var out []string
	for _, p := range e.Parts() {
		if p.IsCard() {
			out = append(out, "c:"+e.Cards()[p.Card()].ID())
		} else {
			out = append(out, "t:"+e.PartText(p))
		}
	}
	return strings.Join(out, " ")
}

// A reply's parts follow the order its text and calls arrived in; the text stays their
// concatenation.
func TestPartsFollowWireOrder(t *testing.T) {
	type step struct {
		text string // the reply's whole text after this step; "" with a call
		call string // a call that starts
	}
	for _, tc := range []struct {
		name  string
		steps []step
		want  string
	}{
		{"text only", []step{{text: "a"}, {text: "ab"}}, "t:ab"},
		{"call only", []step{{call: "c1"}}, "c:c1"},
		{"text then call", []step{{text: "a"}, {call: "c1"}}, "t:a c:c1"},
		{"call then text", []step{{call: "c1"}, {text: "a"}, {text: "ab"}}, "c:c1 t:ab"},
		{"text call text", []step{{text: "a"}, {call: "c1"}, {text: "ab"}, {text: "abc"}}, "t:a c:c1 t:bc"},
		{"two calls between text", []step{{text: "a"}, {call: "c1"}, {call: "c2"}, {text: "ab"}, {call: "c3"}}, "t:a c:c1 c:c2 t:b c:c3"},
		{"a call's second snapshot adds nothing", []step{{call: "c1"}, {text: "a"}, {call: "c1"}}, "c:c1 t:a"},
		{"text rewritten", []step{{text: "ab"}, {call: "c1"}, {text: "abc"}, {text: "xy"}}, "t:xy c:c1"},
		{"text cleared", []step{{text: "ab"}, {call: "c1"}, {text: ""}}, "c:c1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tr Transcript
			e := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
			text := ""
			for _, s := range tc.steps {
				if s.call != "" {
					tr.SetCall(e, phase.ToolCall{ID: s.call, Name: "now", Status: phase.CallPending})
					continue
				}
				text = s.text
				tr.SetReply(e, text, "")
			}
			if got := layout(e); got != tc.want {
				t.Fatalf("parts %q, want %q", got, tc.want)
			}
			var joined strings.Builder
			cards := 0
			for _, p := range e.Parts() {
				joined.WriteString(e.PartText(p))
				if p.IsCard() {
					cards++
				}
			}
			if joined.String() != e.Text() || cards != len(e.Cards()) {
				t.Fatalf("text parts join to %q (text %q), %d card parts of %d", joined.String(), e.Text(), cards, len(e.Cards()))
			}
			// Its parts added again one by one (a saved history resumed) rebuild the same parts.
			again := tr.Add(Spec{Role: RoleAssistant})
			for _, p := range e.Parts() {
				if p.IsCard() {
					tr.SetCall(again, e.Cards()[p.Card()].Call())
				} else {
					tr.SetReply(again, again.Text()+e.PartText(p), "")
				}
			}
			if got := layout(again); got != tc.want {
				t.Fatalf("rebuilt from its parts: parts %q, want %q", got, tc.want)
			}
		})
	}
}

// An entry made whole (a rebuilt history) has its text, then its cards.
func TestAddedEntryHasTextThenCards(t *testing.T) {
	var tr Transcript
	e := tr.Add(Spec{Role: RoleAssistant, Text: "hi", Cards: []CardSpec{{Call: phase.ToolCall{ID: "a"}}, {Call: phase.ToolCall{ID: "b"}}}})
	if got := layout(e); got != "t:hi c:a c:b" {
		t.Fatalf("parts %q", got)
	}
	if e := tr.Add(Spec{Role: RoleAssistant}); len(e.Parts()) != 0 {
		t.Fatalf("an empty reply has parts %q", layout(e))
	}
}

// A prompt of more than FoldLines lines is folded until expanded.
func TestLongPromptsFold(t *testing.T) {
	var tr Transcript
	short := tr.Add(Spec{Role: RoleUser, Text: strings.Repeat("x\n", FoldLines)})
	long := tr.Add(Spec{Role: RoleUser, Text: strings.Repeat("x\n", FoldLines+1)})
	notice := tr.Add(Spec{Role: RoleNotice, Text: strings.Repeat("x\n", 40)})
	if short.Folded() || short.Foldable() || short.Lines() != FoldLines {
		t.Fatalf("%d lines: folded %v, lines %d", FoldLines, short.Folded(), short.Lines())
	}
	if !long.Folded() || long.Lines() != FoldLines+1 {
		t.Fatalf("%d lines: folded %v, lines %d", FoldLines+1, long.Folded(), long.Lines())
	}
	if notice.Foldable() {
		t.Fatal("a notice folds")
	}
	if !tr.MoveFocus(-1) || !long.Focused() || !tr.ToggleFocused() || long.Folded() {
		t.Fatalf("focus and expand: focused %v folded %v", long.Focused(), long.Folded())
	}
	if wide := tr.Add(Spec{Role: RoleUser, Text: strings.Repeat("x", FoldBytes+1)}); !wide.Folded() || wide.Lines() != 1 {
		t.Fatalf("a prompt of %d bytes on one line: folded %v", FoldBytes+1, wide.Folded())
	}
	if fits := tr.Add(Spec{Role: RoleUser, Text: strings.Repeat("x", FoldBytes)}); fits.Foldable() {
		t.Fatalf("a prompt of %d bytes folds", FoldBytes)
	}
}

// The focus walks the cards and folded prompts in screen order; moving it bumps the entries
// whose mark changes.
func TestFocusMovesInScreenOrder(t *testing.T) {
	var tr Transcript
	first := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
	tr.SetCall(first, phase.ToolCall{ID: "a"})
	tr.SetReply(first, "text", "")
	tr.SetCall(first, phase.ToolCall{ID: "b"})
	paste := tr.Add(Spec{Role: RoleUser, Text: strings.Repeat("line\n", 20)})
	second := tr.Add(Spec{Role: RoleAssistant})
	tr.SetCall(second, phase.ToolCall{ID: "c"})

	where := func() string {
		i, card, ok := tr.Focus()
		if !ok {
			return "none"
		}
		e := tr.Entries()[i]
		if card < 0 {
			return "paste"
		}
		return e.Cards()[card].ID()
	}
	if tr.MoveFocus(1) || where() != "none" {
		t.Fatalf("down with nothing focused focused %s", where())
	}
	for _, tc := range []struct {
		delta   int
		want    string
		changed bool
	}{
		{-1, "c", true}, {-1, "paste", true}, {-1, "b", true}, {-1, "a", true}, {-1, "a", false},
		{1, "b", true}, {2, "c", true}, {1, "none", true}, {-3, "b", true},
	} {
		v1, v2 := first.Version(), second.Version()
		before := where()
		if got := tr.MoveFocus(tc.delta); got != tc.changed || where() != tc.want {
			t.Fatalf("from %s by %d: at %s (changed %v), want %s", before, tc.delta, where(), got, tc.want)
		}
		if (before == "a" || before == "b" || tc.want == "a" || tc.want == "b") && tc.changed && first.Version() == v1 {
			t.Fatalf("from %s to %s: the first reply was not bumped", before, tc.want)
		}
		if (before == "c" || tc.want == "c") && second.Version() == v2 {
			t.Fatalf("from %s to %s: the second reply was not bumped", before, tc.want)
		}
	}
	if !tr.ToggleFocused() || !first.Cards()[1].Expanded() || first.FocusedCard() != 1 || paste.Focused() {
		t.Fatalf("toggle: expanded %v", first.Cards()[1].Expanded())
	}
	tr.Truncate(1)
	if where() != "b" {
		t.Fatalf("truncating after the focus moved it to %s", where())
	}
	tr.Truncate(0)
	if where() != "none" || tr.ToggleFocused() {
		t.Fatalf("truncating the focused entry left %s focused", where())
	}
}

// A card's Rev changes with every change to that card and with no change to another.
func TestCardRevFollowsItsCard(t *testing.T) {
	var tr Transcript
	e := tr.Add(Spec{Role: RoleAssistant, Streaming: true})
	tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallRunning})
	tr.SetCall(e, phase.ToolCall{ID: "b", Status: phase.CallRunning})
	rev := func(i int) uint64 { return e.Cards()[i].Rev() }
	for _, tc := range []struct {
		name   string
		change func()
	}{
		{"elapsed", func() { tr.SetElapsed(e, "a", 2*time.Second) }},
		{"output", func() { tr.SetOutput(e, "a", "line") }},
		{"asking", func() { tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallAsking, AskPlace: 1, AskOf: 1}) }},
		{"numbered", func() { tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallAsking, AskPlace: 1, AskOf: 2}) }},
		{"queued", func() { tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallQueued, QueuedBehind: 1}) }},
		{"result", func() {
			tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallDone, Result: phase.ToolResult{Output: "ok", Duration: 1}})
		}},
		{"summary", func() { tr.SetSummary(e, "a", "x=1") }},
		{"declined", func() { tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallDeclined}) }},
		{"toggled", func() { tr.ToggleCard(e, 0) }},
	} {
		a, b := rev(0), rev(1)
		tc.change()
		if rev(0) == a || rev(1) != b {
			t.Fatalf("%s: card a %d → %d, card b %d → %d", tc.name, a, rev(0), b, rev(1))
		}
	}
	a := rev(0)
	tr.SetReply(e, "text", "")
	tr.SetCall(e, e.Cards()[0].Call()) // the snapshot it already shows
	if rev(0) != a {
		t.Fatal("a change to the text or the same snapshot again changed the card's Rev")
	}
	tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallRunning})
	tr.SetElapsed(e, "a", 2*time.Second)
	a = rev(0)
	tr.SetElapsed(e, "a", 2500*time.Millisecond) // the same whole second
	if rev(0) != a {
		t.Fatal("under a second of elapsed time changed the card's Rev")
	}
	tr.SetCall(e, phase.ToolCall{ID: "a", Status: phase.CallDone})
	if c := e.Cards()[0]; c.Elapsed() != 0 || c.Output() != "" {
		t.Fatalf("a call that no longer runs keeps its running time %s and output %q", c.Elapsed(), c.Output())
	}
}
