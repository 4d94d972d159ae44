package phase

import "testing"

// Every phase × every event kind: where the event leads, and what it does to the state.
func TestReduceEveryPhaseAndKind(t *testing.T) {
	type want struct {
		phase   Phase
		text    string
		tool    string
		reason  string
		stopped bool
	}
	// start builds a state already in phase p, with some text, a tool name and (for Error) a reason.
	start := func(p Phase) State {
		s := State{Phase: p, Text: Text{}.Append("abc"), Tool: "lookup"}
		if p == Error {
			s.Reason = "HTTP 500 from example.com"
		}
		if p == Complete {
			s.Stopped = true
		}
		return s
	}
	unchanged := func(p Phase) want {
		s := start(p)
		return want{s.Phase, s.Text.String(), s.Tool, s.Reason, s.Stopped}
	}
	cases := []struct {
		from Phase
		ev   Event
		want want
	}{
		// submit: from anywhere to streaming-text, with a fresh reply
		{Idle, Event{Kind: KindSubmit}, want{phase: StreamingText}},
		{StreamingText, Event{Kind: KindSubmit}, want{phase: StreamingText}},
		{StreamingTool, Event{Kind: KindSubmit}, want{phase: StreamingText}},
		{Error, Event{Kind: KindSubmit}, want{phase: StreamingText}},
		{Complete, Event{Kind: KindSubmit}, want{phase: StreamingText}},
		// text: only while streaming; appends
		{Idle, Event{Kind: KindText, Delta: "x"}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindText, Delta: "x"}, want{StreamingText, "abcx", "lookup", "", false}},
		{StreamingTool, Event{Kind: KindText, Delta: "x"}, want{StreamingText, "abcx", "lookup", "", false}},
		{Error, Event{Kind: KindText, Delta: "x"}, unchanged(Error)},
		{Complete, Event{Kind: KindText, Delta: "x"}, unchanged(Complete)},
		// reasoning: moves like text, never touches Text
		{Idle, Event{Kind: KindReasoning, Delta: "r"}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindReasoning, Delta: "r"}, want{StreamingText, "abc", "lookup", "", false}},
		{StreamingTool, Event{Kind: KindReasoning, Delta: "r"}, want{StreamingText, "abc", "lookup", "", false}},
		{Error, Event{Kind: KindReasoning, Delta: "r"}, unchanged(Error)},
		{Complete, Event{Kind: KindReasoning, Delta: "r"}, unchanged(Complete)},
		// tool frames: to streaming-tool, never touch Text; a new name replaces the old
		{Idle, Event{Kind: KindTool, Tool: "now"}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindTool, Tool: "now"}, want{StreamingTool, "abc", "now", "", false}},
		{StreamingTool, Event{Kind: KindTool, Tool: "now"}, want{StreamingTool, "abc", "now", "", false}},
		{Error, Event{Kind: KindTool, Tool: "now"}, unchanged(Error)},
		{Complete, Event{Kind: KindTool, Tool: "now"}, unchanged(Complete)},
		// local tool work: same lane
		{Idle, Event{Kind: KindToolWork, Tool: "now"}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindToolWork, Tool: "now"}, want{StreamingTool, "abc", "now", "", false}},
		{StreamingTool, Event{Kind: KindToolWork, Tool: "now"}, want{StreamingTool, "abc", "now", "", false}},
		{Error, Event{Kind: KindToolWork, Tool: "now"}, unchanged(Error)},
		{Complete, Event{Kind: KindToolWork, Tool: "now"}, unchanged(Complete)},
		// ask: a tool waits for approval; same lane, with the question
		{Idle, Event{Kind: KindAsk, Tool: "write_note", Delta: "text=hi"}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindAsk, Tool: "write_note", Delta: "text=hi"}, want{StreamingTool, "abc", "write_note", "", false}},
		{StreamingTool, Event{Kind: KindAsk, Tool: "write_note", Delta: "text=hi"}, want{StreamingTool, "abc", "write_note", "", false}},
		{Error, Event{Kind: KindAsk, Tool: "write_note"}, unchanged(Error)},
		{Complete, Event{Kind: KindAsk, Tool: "write_note"}, unchanged(Complete)},
		// error: from streaming only; the partial text stays
		{Idle, Event{Kind: KindError, Error: "boom"}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindError, Error: "boom"}, want{Error, "abc", "lookup", "boom", false}},
		{StreamingTool, Event{Kind: KindError, Error: "boom"}, want{Error, "abc", "lookup", "boom", false}},
		{Error, Event{Kind: KindError, Error: "second"}, unchanged(Error)},
		{Complete, Event{Kind: KindError, Error: "late"}, unchanged(Complete)},
		// done: completes a stream; after error it stays error
		{Idle, Event{Kind: KindDone}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindDone}, want{Complete, "abc", "lookup", "", false}},
		{StreamingTool, Event{Kind: KindDone}, want{Complete, "abc", "lookup", "", false}},
		{Error, Event{Kind: KindDone}, unchanged(Error)},
		{Complete, Event{Kind: KindDone}, unchanged(Complete)},
		// stop: only something streaming can be stopped; the partial reply is kept
		{Idle, Event{Kind: KindStop}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindStop}, want{Complete, "abc", "lookup", "", true}},
		{StreamingTool, Event{Kind: KindStop}, want{Complete, "abc", "lookup", "", true}},
		{Error, Event{Kind: KindStop}, unchanged(Error)},
		{Complete, Event{Kind: KindStop}, unchanged(Complete)},
		// withdraw: only while streaming; back to idle with nothing of the reply
		{Idle, Event{Kind: KindWithdraw}, unchanged(Idle)},
		{StreamingText, Event{Kind: KindWithdraw}, want{phase: Idle}},
		{StreamingTool, Event{Kind: KindWithdraw}, want{phase: Idle}},
		{Error, Event{Kind: KindWithdraw}, unchanged(Error)},
		{Complete, Event{Kind: KindWithdraw}, unchanged(Complete)},
	}
	seen := map[[2]int]bool{}
	for _, c := range cases {
		seen[[2]int{int(c.from), int(c.ev.Kind)}] = true
		got := Reduce(start(c.from), c.ev)
		g := want{got.Phase, got.Text.String(), got.Tool, got.Reason, got.Stopped}
		if g != c.want {
			t.Errorf("%s + %s: got %+v, want %+v", c.from, c.ev.Kind, g, c.want)
		}
	}
	for _, p := range Phases {
		for _, k := range Kinds {
			if !seen[[2]int{int(p), int(k)}] {
				t.Errorf("no case for %s + %s", p, k)
			}
		}
	}
}

func TestEmptyTextDeltaMovesWithoutAddingText(t *testing.T) {
	s := Reduce(State{}, Event{Kind: KindSubmit})
	s = Reduce(s, Event{Kind: KindTool, Tool: "lookup"})
	s = Reduce(s, Event{Kind: KindText, Delta: ""})
	if s.Phase != StreamingText || s.Text.Len() != 0 {
		t.Fatalf("got phase %s text %q, want streaming-text and no text", s.Phase, s.Text.String())
	}
}

func TestToolFramesNeverAddText(t *testing.T) {
	s := Reduce(State{}, Event{Kind: KindSubmit})
	s = Reduce(s, Event{Kind: KindTool, Tool: "lookup", Delta: `{"q":"home"}`})
	s = Reduce(s, Event{Kind: KindToolWork, Tool: "lookup", Delta: `{"q":"home"}`})
	if s.Text.Len() != 0 || s.Reasoning.Len() != 0 {
		t.Fatalf("tool frames added text %q / reasoning %q", s.Text.String(), s.Reasoning.String())
	}
}

func TestSubmitClearsTheLastReply(t *testing.T) {
	s := State{Phase: Complete, Text: Text{}.Append("old"), Reasoning: Text{}.Append("hm"), Tool: "now", Stopped: true}
	s = Reduce(s, Event{Kind: KindSubmit})
	if s.Text.Len() != 0 || s.Reasoning.Len() != 0 || s.Tool != "" || s.Stopped || s.Reason != "" {
		t.Fatalf("submit kept state of the last reply: %+v", s)
	}
}

func TestAskLastsUntilTheNextEvent(t *testing.T) {
	s := Reduce(State{}, Event{Kind: KindSubmit})
	s = Reduce(s, Event{Kind: KindAsk, Tool: "write_note", Delta: "text=hi"})
	if s.Ask != "text=hi" {
		t.Fatalf("Ask = %q after an ask event", s.Ask)
	}
	s = Reduce(s, Event{Kind: KindToolWork, Tool: "write_note"})
	if s.Ask != "" || s.Phase != StreamingTool {
		t.Fatalf("tool work kept the question: %+v", s)
	}
	s = Reduce(s, Event{Kind: KindAsk, Tool: "write_note", Delta: "text=hi"})
	s = Reduce(s, Event{Kind: KindStop})
	if s.Ask != "" || !s.Stopped {
		t.Fatalf("stop kept the question: %+v", s)
	}
}

func TestErrorWithoutWordsStillSaysSomething(t *testing.T) {
	s := Reduce(State{Phase: StreamingText}, Event{Kind: KindError})
	if s.Reason == "" {
		t.Fatal("an error event with no message left Reason empty")
	}
}

func TestUnknownValuesAreIgnored(t *testing.T) {
	s := State{Phase: StreamingText}
	if got := Reduce(s, Event{Kind: Kind(200)}); got.Phase != StreamingText {
		t.Fatalf("unknown kind moved the phase to %s", got.Phase)
	}
	if got := Reduce(State{Phase: Phase(99)}, Event{Kind: KindDone}); got.Phase != Phase(99) {
		t.Fatalf("unknown phase moved to %s", got.Phase)
	}
	if Phase(99).String() != "phase(?)" || Kind(99).String() != "kind(?)" {
		t.Fatal("unknown values must not print as a real name")
	}
}

func TestPhaseNames(t *testing.T) {
	want := []string{"idle", "streaming-text", "streaming-tool", "error", "complete"}
	for i, p := range Phases {
		if p.String() != want[i] {
			t.Errorf("phase %d prints %q, want %q", i, p, want[i])
		}
	}
}

func TestEveryTransitionIsReachableThroughReduce(t *testing.T) {
	for _, tr := range Transitions {
		if got := Reduce(State{Phase: tr.From}, Event{Kind: tr.On}); got.Phase != tr.To {
			t.Errorf("table says %s --%s--> %s, Reduce gives %s", tr.From, tr.On, tr.To, got.Phase)
		}
	}
}
