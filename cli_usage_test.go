package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeConfig is a config file of one provider.
func writeConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[provider.local]\nbase_url = \"http://127.0.0.1:1/v1\"\ndefault_model = \"m\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAnUnknownFlagGetsAHintNotTheHelp: a mistyped flag is named, with one line saying where
// the flags are, and exit code 2.
func TestAnUnknownFlagGetsAHintNotTheHelp(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"--bogus"}, nil, &out, &errb)
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	if code != 2 || out.Len() != 0 || len(lines) != 2 || !strings.Contains(lines[0], "-bogus") || !strings.Contains(lines[1], "run phasechat --help for the flags") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"-h"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "-stall-timeout duration") {
		t.Fatalf("-h: code %d, stdout %q", code, out.String())
	}
}

// TestUsageMistakesExitTwo: a flag whose value is wrong exits 2, in the chat and one-shot alike,
// saying what to fix.
func TestUsageMistakesExitTwo(t *testing.T) {
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"--wire", "grpc"}, "use chat, anthropic or responses"},
		{[]string{"--theme", "solarized"}, `--theme must be one of auto, dark, light, got "solarized"`},
		{[]string{"--config", "/nonexistent/phasechat.toml"}, "the config file /nonexistent/phasechat.toml given with --config does not exist"},
		{[]string{"--provider", "nosuch", "--config", writeConfig(t)}, `no provider named "nosuch"`},
	}
	for _, c := range cases {
		for _, mode := range [][]string{nil, {"-p", "hi"}} {
			args := append(append([]string{}, c.args...), mode...)
			var out, errb bytes.Buffer
			if code := run(args, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), c.err) {
				t.Errorf("%v: code %d, stderr %q", args, code, errb.String())
			}
		}
	}
}

// TestAResumeIDThatNamesNoOneSessionExitsTwo: an id prefix two sessions share, or one no
// session has, is a usage mistake.
func TestAResumeIDThatNamesNoOneSessionExitsTwo(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	data := t.TempDir()
	for range 2 {
		if r := runOneShotChild(t, data, "", "-p", "hi", "--base-url", rf.base, "--model", "text"); r.code != 0 {
			t.Fatalf("saving a session: %+v", r)
		}
	}
	for _, c := range []struct{ id, err string }{{"2", "2 sessions start with"}, {"nosuch", `no session "nosuch"`}} {
		for _, mode := range [][]string{{"-p", "hi"}, nil} {
			args := append([]string{"--resume", c.id, "--base-url", rf.base, "--model", "text"}, mode...)
			if r := runOneShotChild(t, data, "", args...); r.code != 2 || !strings.Contains(r.stderr, c.err) {
				t.Errorf("%v: %+v", args, r)
			}
		}
	}
}

// TestTheHelpNamesEveryWireFormat: the help's first line is about all three formats, and no
// flag sends the reader to the help they are reading.
func TestTheHelpNamesEveryWireFormat(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, nil, &out, &errb); code != 0 {
		t.Fatalf("code %d", code)
	}
	help := out.String()
	head, _, _ := strings.Cut(help, "\nUsage:")
	for _, want := range []string{"Chat Completions", "Anthropic Messages", "OpenAI Responses"} {
		if !strings.Contains(head, want) {
			t.Errorf("the help's head %q does not name %s", head, want)
		}
	}
	if strings.Contains(help, "see phasechat help") {
		t.Errorf("a flag points to the help it is in:\n%s", help)
	}
}
