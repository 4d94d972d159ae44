package app

import (
	"strings"
	"testing"
)

func TestPipedInputStillAsksOnTheTerminal(t *testing.T) {
	yes, no := func() bool { return true }, func() bool { return false }
	cases := []struct {
		accessible, stdinTTY bool
		tty                  func() bool
		canAsk               bool
		note                 bool
	}{
		{false, true, no, true, false},
		{false, false, yes, true, true}, // echo hello | phasechat: keys come from /dev/tty
		{false, false, no, false, false},
		{true, false, yes, false, false}, // the line mode reads standard input
	}
	for _, tc := range cases {
		canAsk, note := InputTerminal(tc.accessible, tc.stdinTTY, tc.tty)
		if canAsk != tc.canAsk || (note != "") != tc.note {
			t.Errorf("%+v: canAsk %v, note %q", tc, canAsk, note)
		}
		if tc.note && !strings.Contains(note, "-p") {
			t.Errorf("the note does not say how to send piped text: %q", note)
		}
	}
}
