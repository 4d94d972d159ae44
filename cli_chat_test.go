package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestChatCommandLine(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"--version"}, 0, "phasechat " + version, ""},
		{[]string{"--help"}, 0, "-stall-timeout duration", ""},
		{[]string{"--max-steps", "0"}, 2, "", "--max-steps must be at least 1"},
		{[]string{"--stall-timeout", "-1s"}, 2, "", "--stall-timeout cannot be negative"},
		{[]string{"--no-such-flag"}, 2, "", "flag provided but not defined"},
		{[]string{"stray"}, 2, "", `unexpected argument "stray"`},
		{[]string{"--base-url", "ftp://example.com", "--version"}, 0, "phasechat", ""},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := runChat(c.args, nil, &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errb.String(), c.err) {
			t.Errorf("%v: code %d, stdout %q, stderr %q", c.args, code, out.String(), errb.String())
		}
	}
}

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
		canAsk, note := inputTerminal(tc.accessible, tc.stdinTTY, tc.tty)
		if canAsk != tc.canAsk || (note != "") != tc.note {
			t.Errorf("%+v: canAsk %v, note %q", tc, canAsk, note)
		}
		if tc.note && !strings.Contains(note, "-p") {
			t.Errorf("the note does not say how to send piped text: %q", note)
		}
	}
}
