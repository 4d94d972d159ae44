package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
)

// syncBuffer is a bytes.Buffer safe to read while a server goroutine writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

var servingURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+`)

// startCLI runs a serving command in the background and returns the URL it prints, a stop
// function that cancels it like Ctrl+C and returns its exit code, and its output.
func startCLI(t *testing.T, run func(context.Context, []string, io.Writer, io.Writer) int, args ...string) (string, func() int, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	code := make(chan int, 1)
	go func() { code <- run(ctx, args, &stdout, &stderr) }()
	stop := func() int {
		cancel()
		select {
		case c := <-code:
			return c
		case <-testwait.After(t):
			t.Fatal("the command did not stop after Ctrl+C")
			return -1
		}
	}
	if !testwait.For(t, func() bool { return servingURL.MatchString(stdout.String()) }) {
		stop()
		t.Fatalf("no address printed; stdout %q stderr %q", stdout.String(), stderr.String())
	}
	return servingURL.FindString(stdout.String()), stop, &stdout
}

func TestFixturesServeServesStreamAndStopsOnSignal(t *testing.T) {
	base, stop, stdout := startCLI(t, fixturesCommand.Fixtures, "serve", "--addr", "127.0.0.1:0", "--interval", "1ms")
	if !strings.Contains(stdout.String(), "export OPENAI_BASE_URL="+base+"/v1") {
		t.Errorf("no OPENAI_BASE_URL hint in %q", stdout.String())
	}
	if out := stdout.String(); strings.Contains(out, "seed") || !strings.Contains(out, "raw SSE stream:  curl -N "+base+"/stream") {
		t.Errorf("the banner does not say what /stream is: %q", out)
	}
	resp, err := http.Get(base + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	seed, _ := fixtures.Lookup("seed")
	if !bytes.Equal(body, seed.Body()) {
		t.Errorf("/stream = %q", body)
	}
	testwait.Until(t, func() bool { return strings.Contains(stdout.String(), "GET /stream seed 200") },
		"an access log line for GET /stream on stdout: %q", stdout)
	// a stalled request (its headers came, then nothing) must not keep Ctrl+C from stopping
	// the server
	stalled := make(chan *http.Response, 1)
	go func() {
		resp, _ := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"stall","stream":true}`))
		stalled <- resp
	}()
	var inFlight *http.Response
	select {
	case inFlight = <-stalled:
	case <-testwait.After(t):
	}
	if inFlight == nil {
		stop()
		t.Fatal("the stalled request got no answer to its headers")
	}
	defer inFlight.Body.Close()
	if code := stop(); code != 0 {
		t.Errorf("exit code %d after Ctrl+C", code)
	}
	if !strings.Contains(stdout.String(), "stopped") {
		t.Errorf("no goodbye in %q", stdout.String())
	}
}

func TestRecordCLIRecordsAndServeDirReplays(t *testing.T) {
	upstream, stopUp, _ := startCLI(t, fixturesCommand.Fixtures, "serve", "--addr", "127.0.0.1:0")
	defer stopUp()
	out := filepath.Join(t.TempDir(), "rec")
	proxy, stopRec, recOut := startCLI(t, fixturesCommand.Record, "--upstream", upstream+"/v1", "--out", out, "--addr", "127.0.0.1:0")
	resp, err := http.Post(proxy+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"text","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	live, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Errorf("reading through the recorder: %v", err)
	}
	text, _ := fixtures.Lookup("text")
	if !bytes.Equal(live, text.Body()) {
		t.Errorf("through the recorder: %q", live)
	}
	stopRec()
	if !strings.Contains(recOut.String(), "001-text.scenario") {
		t.Errorf("the recorder did not print the file it wrote: %q", recOut.String())
	}
	var list bytes.Buffer
	if code := fixturesCommand.Fixtures(context.Background(), []string{"list", "--dir", out}, &list, io.Discard); code != 0 ||
		!strings.Contains(list.String(), "001-text") {
		t.Errorf("list --dir: %d %q", code, list.String())
	}
	replay, stopReplay, _ := startCLI(t, fixturesCommand.Fixtures, "serve", "--addr", "127.0.0.1:0", "--dir", out)
	defer stopReplay()
	resp, err = http.Post(replay+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"001-text","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(again, text.Body()) {
		t.Errorf("replayed: %q", again)
	}
}

func TestFixturesList(t *testing.T) {
	var out bytes.Buffer
	if code := fixturesCommand.Fixtures(context.Background(), []string{"list"}, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(fixtures.Names()) {
		t.Errorf("%d lines for %d scenarios", len(lines), len(fixtures.Names()))
	}
	for i, name := range fixtures.Names() {
		s, _ := fixtures.Lookup(name)
		if !strings.HasPrefix(lines[i], name+" ") || !strings.HasSuffix(lines[i], s.Description) {
			t.Errorf("line %q, want %s and its description", lines[i], name)
		}
	}
}

func TestFixturesBody(t *testing.T) {
	var out bytes.Buffer
	seed, _ := fixtures.Lookup("seed")
	if code := fixturesCommand.Fixtures(context.Background(), []string{"body", "seed"}, &out, io.Discard); code != 0 || !bytes.Equal(out.Bytes(), seed.Body()) {
		t.Errorf("body seed: %d %q", code, out.String())
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "seed.scenario"), []byte("raw mine\n"), 0o644)
	out.Reset()
	if code := fixturesCommand.Fixtures(context.Background(), []string{"body", "--dir", dir, "seed"}, &out, io.Discard); code != 0 || out.String() != "mine" {
		t.Errorf("body --dir: %d %q; a file in --dir should win", code, out.String())
	}
}

func TestCommandLineMistakes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.scenario"), []byte("status 200\nwirte \"x\"\n"), 0o644)
	os.Symlink(filepath.Join(dir, "bad.scenario"), filepath.Join(dir, "link.jsonl"))
	tests := []struct {
		name   string
		run    func(context.Context, []string, io.Writer, io.Writer) int
		args   []string
		code   int
		stderr string
	}{
		{"no subcommand", fixturesCommand.Fixtures, nil, 2, "Usage:"},
		{"unknown subcommand", fixturesCommand.Fixtures, []string{"serv"}, 2, `unknown command "serv"`},
		{"unknown flag", fixturesCommand.Fixtures, []string{"serve", "--port", "1"}, 2, "flag provided but not defined: -port"},
		{"stray argument", fixturesCommand.Fixtures, []string{"list", "extra"}, 2, `unexpected argument "extra"`},
		{"bad interval", fixturesCommand.Fixtures, []string{"serve", "--interval", "0s"}, 2, "--interval must be more than 0"},
		{"missing dir", fixturesCommand.Fixtures, []string{"serve", "--dir", filepath.Join(dir, "nope"), "--addr", "127.0.0.1:0"}, 1, "nope"},
		{"bad scenario file", fixturesCommand.Fixtures, []string{"list", "--dir", dir}, 1, "bad.scenario:2: unknown directive \"wirte\""},
		{"unknown side scenario", fixturesCommand.Fixtures, []string{"serve", "--side", "nope", "--addr", "127.0.0.1:0"}, 1, `no scenario "nope" to answer side requests`},
		{"access log through a link", fixturesCommand.Fixtures, []string{"serve", "--log", filepath.Join(dir, "link.jsonl"), "--addr", "127.0.0.1:0"}, 1, "symbolic link"},
		{"busy port", fixturesCommand.Fixtures, []string{"serve", "--addr", "256.0.0.1:1"}, 1, "cannot listen on 256.0.0.1:1"},
		{"record without flags", fixturesCommand.Record, nil, 2, "--upstream and --out are both required"},
		{"record bad upstream", fixturesCommand.Record, []string{"--upstream", "api.openai.com/v1", "--out", dir}, 2, "want an http:// or https:// URL"},
		{"help", fixturesCommand.Fixtures, []string{"help"}, 0, ""},
		{"body without a name", fixturesCommand.Fixtures, []string{"body"}, 2, "name one scenario"},
		{"body of nothing", fixturesCommand.Fixtures, []string{"body", "nope"}, 1, `no scenario named "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := tt.run(context.Background(), tt.args, io.Discard, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tt.code, tt.stderr)
			}
		})
	}
}

// A tool turn recorded through phasechat record replays as that turn: the recording answers
// the first request with the tool call and the follow-up with the recorded follow-up answer,
// so a one-shot chat against it runs the tool once and ends in success.
func TestRecordedToolTurnReplaysAsATurn(t *testing.T) {
	upstream, stopUp, _ := startCLI(t, fixturesCommand.Fixtures, "serve", "--addr", "127.0.0.1:0")
	defer stopUp()
	out := filepath.Join(t.TempDir(), "rec")
	proxy, stopRec, _ := startCLI(t, fixturesCommand.Record, "--upstream", upstream+"/v1", "--out", out, "--addr", "127.0.0.1:0")
	live := runOneShotChild(t, t.TempDir(), "", "-p", "what time is it", "--base-url", proxy+"/v1", "--model", "text-then-tool", "--no-save")
	stopRec()
	if live.code != 0 || !strings.Contains(live.stdout, "Tool results received: now") {
		t.Fatalf("recording: exit %d\nstdout %q\nstderr %q", live.code, live.stdout, live.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.scenario"))
	if len(files) != 1 {
		t.Fatalf("the turn was saved as %v, want one recording", files)
	}
	saved, _ := os.ReadFile(files[0])
	if n := bytes.Count(saved, []byte("\n--- answer ")); n != 2 {
		t.Fatalf("%d answers in the recording, want 2:\n%s", n, saved)
	}
	logFile := filepath.Join(t.TempDir(), "access.jsonl")
	replay, stopReplay, _ := startCLI(t, fixturesCommand.Fixtures, "serve", "--addr", "127.0.0.1:0", "--dir", out, "--log", logFile)
	name := strings.TrimSuffix(filepath.Base(files[0]), ".scenario")
	again := runOneShotChild(t, t.TempDir(), "", "-p", "what time is it", "--base-url", replay+"/v1", "--model", name, "--no-save")
	stopReplay()
	if again.code != 0 || again.stdout != live.stdout {
		t.Fatalf("replayed: exit %d\nstdout %q (recorded %q)\nstderr %q", again.code, again.stdout, live.stdout, again.stderr)
	}
	entries, _ := os.ReadFile(logFile)
	if n := bytes.Count(entries, []byte("\n")); n != 2 {
		t.Fatalf("%d requests to the recording, want 2 (the call, then its one follow-up):\n%s", n, entries)
	}
}

// --speed less than 0 is refused before the server starts.
func TestFixturesServeSpeed(t *testing.T) {
	var stderr bytes.Buffer
	if code := fixturesCommand.Fixtures(context.Background(), []string{"serve", "--speed", "-1"}, io.Discard, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), "--speed must be 0") {
		t.Errorf("--speed -1: exit %d, %q", code, stderr.String())
	}
}

// record --fault takes the faults it names and refuses others before it starts.
func TestRecordFaultFlag(t *testing.T) {
	var stderr bytes.Buffer
	code := fixturesCommand.Record(context.Background(), []string{"--upstream", "http://127.0.0.1:1/v1", "--out", t.TempDir(), "--fault", "explode@2"}, io.Discard, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "stall@N") {
		t.Errorf("a bad fault: exit %d, %q", code, stderr.String())
	}
	upstream, stopUp, _ := startCLI(t, fixturesCommand.Fixtures, "serve", "--addr", "127.0.0.1:0")
	defer stopUp()
	proxy, stopRec, out := startCLI(t, fixturesCommand.Record, "--upstream", upstream+"/v1", "--out", t.TempDir(), "--addr", "127.0.0.1:0", "--fault", "status:503")
	defer stopRec()
	resp, err := http.Post(proxy+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"text","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || !strings.Contains(out.String(), "every answer gets the fault status:503") {
		t.Errorf("status %d, output %q", resp.StatusCode, out.String())
	}
}
