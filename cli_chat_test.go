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
