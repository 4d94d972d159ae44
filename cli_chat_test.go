package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
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

func TestEndpointResolution(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_MODEL", "")
	ep, err := resolveEndpoint(chatOptions{})
	if err != nil || !ep.demo || ep.model != "demo" || !strings.HasPrefix(ep.baseURL, "http://127.0.0.1:") {
		t.Fatalf("no configuration must give the demo: %+v %v", ep, err)
	}
	ep.stop()

	t.Setenv("OPENAI_API_KEY", "sk-test")
	if ep, _ = resolveEndpoint(chatOptions{}); ep.demo || ep.baseURL != openAIBaseURL || ep.model != "gpt-4o-mini" {
		t.Fatalf("a key alone must give OpenAI: %+v", ep)
	}
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	t.Setenv("OPENAI_MODEL", "local")
	if ep, _ = resolveEndpoint(chatOptions{}); ep.baseURL != "http://127.0.0.1:9/v1" || ep.model != "local" {
		t.Fatalf("OPENAI_BASE_URL and OPENAI_MODEL: %+v", ep)
	}
	if ep, _ = resolveEndpoint(chatOptions{baseURL: "http://127.0.0.1:8/v1", model: "m"}); ep.baseURL != "http://127.0.0.1:8/v1" || ep.model != "m" {
		t.Fatalf("flags win: %+v", ep)
	}
	if _, err := resolveEndpoint(chatOptions{baseURL: "localhost:8080"}); err == nil || !strings.Contains(err.Error(), "not an http(s) URL") {
		t.Fatalf("a URL without a scheme must be refused clearly: %v", err)
	}
}

func TestEndpointLabelHidesCredentials(t *testing.T) {
	if got := endpointLabel("https://user:secret@example.com/v1?key=abc"); strings.Contains(got, "secret") || strings.Contains(got, "abc") {
		t.Fatalf("label %q leaks credentials", got)
	}
}

func TestEndpointResolutionByWire(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-openai")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_MODEL", "")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant")
	t.Setenv("ANTHROPIC_BASE_URL", "")
	t.Setenv("ANTHROPIC_MODEL", "")
	ep, err := resolveEndpoint(chatOptions{wire: "anthropic"})
	if err != nil || ep.wire != wire.WireAnthropic || ep.apiKey != "sk-ant" || ep.baseURL != anthropicBaseURL || ep.model != anthropicModel {
		t.Fatalf("anthropic defaults: %+v %v", ep, err)
	}
	if ep, _ = resolveEndpoint(chatOptions{wire: "anthropic", baseURL: "http://127.0.0.1:7/v1", model: "m"}); ep.baseURL != "http://127.0.0.1:7/v1" || ep.model != "m" {
		t.Fatalf("--base-url and --model win for anthropic too: %+v", ep)
	}
	if ep, _ = resolveEndpoint(chatOptions{wire: "responses"}); ep.wire != wire.WireResponses || ep.apiKey != "sk-openai" || ep.baseURL != openAIBaseURL {
		t.Fatalf("responses uses the OpenAI defaults: %+v", ep)
	}
	if _, err := resolveEndpoint(chatOptions{wire: "gemini"}); err == nil || !strings.Contains(err.Error(), "chat, anthropic or responses") {
		t.Fatalf("an unknown format must be refused clearly: %v", err)
	}
}

func TestTheDemoSaysSoAtStart(t *testing.T) {
	if got := withDemoNotice(true, ""); !strings.Contains(got, "built-in demo") || !strings.Contains(got, "OPENAI_API_KEY") {
		t.Errorf("demo notice %q", got)
	}
	if got := withDemoNotice(true, "Resumed 3 messages"); !strings.HasSuffix(got, "\nResumed 3 messages") {
		t.Errorf("the resume notice is lost: %q", got)
	}
	if got := withDemoNotice(false, "x"); got != "x" {
		t.Errorf("a real endpoint gets the demo notice: %q", got)
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
