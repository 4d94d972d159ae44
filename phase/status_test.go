package phase

import (
	"strings"
	"testing"
)

func TestStatusTexts(t *testing.T) {
	cases := []struct {
		s    State
		want string
	}{
		{State{Phase: Idle}, StatusIdle},
		{State{Phase: StreamingText}, "Writing a reply. Esc stops generating."},
		{State{Phase: StreamingTool, Tool: "lookup"}, "Working on lookup. Esc stops generating."},
		{State{Phase: StreamingTool}, "Working on a tool. Esc stops generating."},
		{State{Phase: StreamingTool, Tool: "write_note", Ask: `text="hi" tags=[2 items]`},
			"Allow write_note with text='hi' tags=2 items? y runs it, n declines, A allows write_note for this session. Esc stops."},
		{State{Phase: Error, Reason: "HTTP 401 from api.openai.com: Incorrect API key provided."},
			"HTTP 401 from api.openai.com: Incorrect API key provided. Retry is available: Enter retries, Tab goes to the composer."},
		{State{Phase: Error, Reason: "No data from the server for 30s"},
			"No data from the server for 30s. Retry is available: Enter retries, Tab goes to the composer."},
		{State{Phase: Error, Reason: `The server closed the stream before finishing (no [DONE])`},
			"The server closed the stream before finishing (no DONE). Retry is available: Enter retries, Tab goes to the composer."},
		{State{Phase: Error, Reason: `The model "gpt-9" does not exist {code 404}`},
			"The model 'gpt-9' does not exist (code 404). Retry is available: Enter retries, Tab goes to the composer."},
		{State{Phase: Error, Reason: "Quota exceeded!"}, "Quota exceeded! Retry is available: Enter retries, Tab goes to the composer."},
		{State{Phase: Error, Reason: "Is the server up?"}, "Is the server up? Retry is available: Enter retries, Tab goes to the composer."},
		{State{Phase: Error, Reason: "Stopped..."}, "Stopped. Retry is available: Enter retries, Tab goes to the composer."},
		{State{Phase: Complete}, "Answer ready."},
		{State{Phase: Complete, Stopped: true}, "Stopped. The partial reply is kept."},
	}
	for _, c := range cases {
		if got := Status(c.s); got != c.want {
			t.Errorf("Status(%s) = %q, want %q", c.s.Phase, got, c.want)
		}
	}
}

// The status line changes only when the phase or the tool name does: replaying the seed
// scenario's frames, it changes exactly at the phase changes and never per delta.
func TestStatusChangesOnlyWithPhaseOrTool(t *testing.T) {
	events := []Event{
		{Kind: KindSubmit},
		{Kind: KindTool, Tool: "lookup"},
		{Kind: KindTool},
		{Kind: KindTool},
		{Kind: KindTool, Tool: "now"},
		{Kind: KindText, Delta: "Found "},
		{Kind: KindText, Delta: "two "},
		{Kind: KindText, Delta: "headings."},
		{Kind: KindDone},
		{Kind: KindDone},
	}
	var got []string
	s, last := State{}, Status(State{})
	for _, ev := range events {
		s = Reduce(s, ev)
		if st := Status(s); st != last {
			got = append(got, st)
			last = st
		}
	}
	want := []string{
		StatusWriting,
		"Working on lookup. Esc stops generating.",
		"Working on now. Esc stops generating.",
		StatusWriting,
		StatusComplete,
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("status changes:\n got %q\nwant %q", got, want)
	}
}

func TestControlsFollowThePhaseTable(t *testing.T) {
	cases := []struct {
		p    Phase
		want Controls
	}{
		{Idle, Controls{Composer: true, Focus: FocusComposer}},
		{StreamingText, Controls{Stop: true, Focus: FocusStop}},
		{StreamingTool, Controls{Stop: true, Focus: FocusStop}},
		{Error, Controls{Composer: true, Retry: true, Focus: FocusRetry}},
		{Complete, Controls{Composer: true, Focus: FocusComposer}},
	}
	for _, c := range cases {
		if got := ControlsFor(c.p); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.p, got, c.want)
		}
		if ControlsFor(c.p).Stop != c.p.Streaming() {
			t.Errorf("%s: Stop shown must equal Streaming()", c.p)
		}
	}
}

func TestStatusNeverHoldsJSONPunctuation(t *testing.T) {
	for _, p := range Phases {
		st := Status(State{Phase: p, Tool: `lo"ok{up}`, Reason: `bad "x" [y] {z}`})
		if p == StreamingTool {
			st += Status(State{Phase: p, Tool: `lo"ok{up}`, Ask: `{"a":[1]}`})
		}
		if strings.ContainsAny(st, `{}[]"`) {
			t.Errorf("%s: status %q holds JSON punctuation", p, st)
		}
	}
}

func TestStatusShortKeepsTheMessage(t *testing.T) {
	for _, tc := range []struct {
		state State
		want  string
	}{
		{State{Phase: Error, Reason: "Connection refused"}, "Connection refused. " + RetryHintShort},
		{State{Phase: Error, Reason: "The server had an err…"}, "The server had an err… " + RetryHintShort},
		{State{Phase: Idle}, StatusIdle},
	} {
		if got := StatusShort(tc.state); got != tc.want {
			t.Errorf("StatusShort(%+v) = %q, want %q", tc.state, got, tc.want)
		}
	}
}
