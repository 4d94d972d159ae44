package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/oneshot"
	"github.com/phasechat/phasechat/model/sessions"
)

// oneShotChildEnv holds, in a child process of the test binary, the arguments of run
// separated by newlines; TestOneShotChild then runs phasechat's main with them.
const (
	oneShotChildEnv  = "PHASECHAT_ONESHOT_CHILD_ARGS"
	oneShotChildData = "PHASECHAT_ONESHOT_CHILD_DATA" // its XDG_DATA_HOME
)

// TestOneShotChild is not a test: it is the phasechat program, when started by oneShot below.
func TestOneShotChild(t *testing.T) {
	args, ok := os.LookupEnv(oneShotChildEnv)
	if !ok {
		t.Skip("the phasechat program for the one-shot tests; runs only as their child process")
	}
	// TestMain pointed the data folder into its run directory, which this process never uses.
	os.RemoveAll(testData)
	os.Setenv("XDG_DATA_HOME", os.Getenv(oneShotChildData))
	os.Exit(run(strings.Split(args, "\n"), os.Stdin, os.Stdout, os.Stderr))
}

// recordingFixtures is the fixture server at pace on 127.0.0.1 (port 0), keeping the bodies of
// the chat requests it got.
type recordingFixtures struct {
	base   string
	mu     sync.Mutex
	bodies [][]byte
}

func newRecordingFixtures(t *testing.T, pace float64, dir string) *recordingFixtures {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{Pace: pace, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rf := &recordingFixtures{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rf.mu.Lock()
		rf.bodies = append(rf.bodies, body)
		rf.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	rf.base = srv.URL + "/v1"
	return rf
}

// lastUserMessage is the content of the last message of the last request.
func (rf *recordingFixtures) lastUserMessage(t *testing.T) string {
	t.Helper()
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if len(rf.bodies) == 0 {
		t.Fatal("no request reached the server")
	}
	var req struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal(rf.bodies[len(rf.bodies)-1], &req); err != nil {
		t.Fatal(err)
	}
	return req.Messages[len(req.Messages)-1].Content
}

type childRun struct {
	code           int
	stdout, stderr string
}

// oneShotCommand is phasechat with args as a child process in dir, with its own data folder.
func oneShotCommand(t *testing.T, dir, data string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestOneShotChild$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), oneShotChildEnv+"="+strings.Join(args, "\n"), oneShotChildData+"="+data,
		"XDG_CONFIG_HOME="+filepath.Join(data, "config"), "OPENAI_API_KEY=")
	return cmd
}

func runOneShotChild(t *testing.T, data, stdin string, args ...string) childRun {
	t.Helper()
	cmd := oneShotCommand(t, t.TempDir(), data, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return childRun{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
}

// TestOneShotExitCodes: each way a turn can end has its exit code, the reply alone is on
// stdout, and what went wrong is on stderr in the provider's words.
func TestOneShotExitCodes(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	cases := []struct {
		model, stdin string
		extra        []string
		code         int
		stdout       string // exactly
		stderr       string // contained
	}{
		{model: "text", code: 0, stdout: "Hello! This is a plain streamed reply, sent one word at a time.\n"},
		{model: "truncated", code: 3, stdout: "This answer stops in the middle of a \n", stderr: "closed the stream before finishing"},
		{model: "stall", extra: []string{"--stall-timeout", "2s"}, code: 4, stdout: "", stderr: "No data from the server for 2s"},
		{model: "http-401", code: 1, stdout: "", stderr: "HTTP 401"},
		{model: "error-frame", code: 1, stderr: "The server sent an error"},
		{model: "text", extra: []string{"--format", "yaml"}, code: 2, stderr: "--format is text, json or jsonl"},
		{model: "hostile", code: 0},
		{model: "tool-then-text", extra: []string{"--max-steps", "1"}, code: 3, stderr: "Stopped after 1 step (--max-steps 1)"},
		{model: "responses-incomplete", extra: []string{"--wire", "responses"}, code: 3, stderr: "(incomplete_details.reason max_output_tokens)."},
		{model: "anthropic-max-tokens", extra: []string{"--wire", "anthropic"}, code: 3, stderr: "(stop_reason max_tokens)."},
	}
	for _, c := range cases {
		t.Run(c.model+strings.Join(c.extra, ""), func(t *testing.T) {
			args := append([]string{"-p", "question", "--base-url", rf.base, "--model", c.model, "--no-save"}, c.extra...)
			r := runOneShotChild(t, t.TempDir(), c.stdin, args...)
			if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07\u009b") {
				t.Fatalf("a terminal control reached the output: %q %q", r.stdout, r.stderr)
			}
			if r.code != c.code || !strings.Contains(r.stderr, c.stderr) || (c.stdout != "" && r.stdout != c.stdout) || (c.code == 4 && r.stdout != "") {
				t.Fatalf("exit %d (want %d)\nstdout %q\nstderr %q (want it to contain %q)", r.code, c.code, r.stdout, r.stderr, c.stderr)
			}
		})
	}
	t.Run("empty", func(t *testing.T) {
		dir := t.TempDir()
		scenario := "status 200\nheader Content-Type: text/event-stream\n" +
			`data {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}]}` + "\n" + "data [DONE]\n"
		if err := os.WriteFile(filepath.Join(dir, "nothing.scenario"), []byte(scenario), 0o644); err != nil {
			t.Fatal(err)
		}
		srv := newRecordingFixtures(t, 0, dir)
		r := runOneShotChild(t, t.TempDir(), "", "-p", "q", "--base-url", srv.base, "--model", "nothing", "--no-save")
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "empty reply") {
			t.Fatalf("an empty reply: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("length", func(t *testing.T) {
		dir := t.TempDir()
		scenario := "status 200\nheader Content-Type: text/event-stream\n" +
			`data {"choices":[{"index":0,"delta":{"content":"cut here"},"finish_reason":null}]}` + "\n" +
			`data {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}` + "\n" + "data [DONE]\n"
		if err := os.WriteFile(filepath.Join(dir, "limit.scenario"), []byte(scenario), 0o644); err != nil {
			t.Fatal(err)
		}
		srv := newRecordingFixtures(t, 0, dir)
		r := runOneShotChild(t, t.TempDir(), "", "-p", "q", "--base-url", srv.base, "--model", "limit", "--no-save")
		if r.code != 3 || r.stdout != "cut here\n" || !strings.Contains(r.stderr, "finish_reason length") {
			t.Fatalf("finish_reason length: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})
}

// TestOneShotStdinIsContextBeforeThePrompt: piped input goes first, the prompt after it; with
// no prompt argument, stdin is the prompt; with neither, it is a usage error.
func TestOneShotStdinIsContextBeforeThePrompt(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	r := runOneShotChild(t, t.TempDir(), "some context\n", "-p", "summarise", "--base-url", rf.base, "--model", "text", "--no-save")
	if r.code != 0 || rf.lastUserMessage(t) != "some context\n\nsummarise" {
		t.Fatalf("exit %d, sent %q", r.code, rf.lastUserMessage(t))
	}
	r = runOneShotChild(t, t.TempDir(), "the whole prompt", "--base-url", rf.base, "-p", "--model", "text", "--no-save")
	if r.code != 0 || rf.lastUserMessage(t) != "the whole prompt" {
		t.Fatalf("stdin as the prompt: exit %d, sent %q", r.code, rf.lastUserMessage(t))
	}
	if r = runOneShotChild(t, t.TempDir(), "  \n", "-p", "--base-url", rf.base, "--no-save"); r.code != 2 || !strings.Contains(r.stderr, "-p needs a prompt") {
		t.Fatalf("no prompt: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestOneShotJSON: --format json prints one object that parses and says everything; jsonl
// prints one event per line ending with the outcome.
func TestOneShotJSON(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	r := runOneShotChild(t, t.TempDir(), "", "-p", "list", "--base-url", rf.base, "--model", "tool-then-text", "--format", "json", "--no-save")
	var res oneshot.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("--format json: %v\n%s", err, r.stdout)
	}
	if r.code != 0 || res.Outcome != oneshot.Complete || len(res.ToolCalls) != 1 || res.ToolCalls[0].Name != "list_dir" || res.ToolCalls[0].IsError || !strings.Contains(res.Content, "Tool results received") {
		t.Fatalf("exit %d, result %+v", r.code, res)
	}
	r = runOneShotChild(t, t.TempDir(), "", "-p", "q", "--base-url", rf.base, "--model", "http-401", "--format", "json", "--no-save")
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 1 || res.Outcome != oneshot.Failed || res.ExitCode != 1 || !strings.Contains(res.Error, "HTTP 401") {
		t.Fatalf("an error as json: exit %d, %+v, %v\n%s", r.code, res, err, r.stdout)
	}

	r = runOneShotChild(t, t.TempDir(), "", "-p", "q", "--base-url", rf.base, "--model", "truncated", "--format", "jsonl", "--no-save")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var text strings.Builder
	var last map[string]any
	for _, l := range lines {
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("a jsonl line does not parse: %q", l)
		}
		if ev["type"] == "text" {
			text.WriteString(ev["delta"].(string))
		}
		last = ev
	}
	if r.code != 3 || text.String() != "This answer stops in the middle of a " || last["type"] != "end" || last["outcome"] != "truncated" {
		t.Fatalf("jsonl: exit %d, text %q, last %v", r.code, text.String(), last)
	}
}

// TestOneShotDeclinesSideEffectsWithoutYes: a tool with side effects is not run without --yes
// and the model is told why; with --yes it runs.
func TestOneShotDeclinesSideEffectsWithoutYes(t *testing.T) {
	approval, err := filepath.Abs("model/linemode/testdata/approval")
	if err != nil {
		t.Fatal(err)
	}
	rf := newRecordingFixtures(t, 0, approval)
	work := t.TempDir()
	run := func(extra ...string) (childRun, oneshot.Result) {
		cmd := oneShotCommand(t, work, t.TempDir(), append([]string{"-p", "mark it", "--base-url", rf.base, "--model", "mark", "--no-save", "--format", "json", "--tools", filepath.Join(approval, "tools.toml")}, extra...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		_ = cmd.Run()
		var res oneshot.Result
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%v: %s %s", err, out.String(), errb.String())
		}
		return childRun{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}, res
	}
	r, res := run()
	if r.code != 0 || len(res.ToolCalls) != 1 || !res.ToolCalls[0].IsError || !strings.Contains(res.ToolCalls[0].Result, "--yes") {
		t.Fatalf("without --yes: exit %d, %+v", r.code, res)
	}
	if _, err := os.Stat(filepath.Join(work, "marker.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the side-effecting tool ran without --yes")
	}
	if !strings.Contains(rf.lastUserMessage(t), "--yes") {
		t.Fatalf("the model was not told why: %q", rf.lastUserMessage(t))
	}
	r, res = run("--yes")
	if r.code != 0 || len(res.ToolCalls) != 1 || res.ToolCalls[0].IsError {
		t.Fatalf("with --yes: exit %d, %+v", r.code, res)
	}
	if _, err := os.Stat(filepath.Join(work, "marker.txt")); err != nil {
		t.Fatal("the tool did not run with --yes")
	}
}

// TestOneShotSavesAndContinues: a one-shot turn is saved as a session titled by the prompt
// (not the piped context), and --continue sends it back as history.
func TestOneShotSavesAndContinues(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	data := t.TempDir()
	r := runOneShotChild(t, data, "long piped context", "-p", "first question", "--base-url", rf.base, "--model", "text")
	if r.code != 0 || !strings.Contains(r.stderr, "saved as session") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	store, err := sessions.Open(filepath.Join(data, "phasechat", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := store.List()
	if len(all) != 1 || all[0].Title != "first question" || all[0].Turns != 1 {
		out, _ := exec.Command("find", data).CombinedOutput()
		t.Fatalf("sessions = %+v\n%s\n%s", all, r.stderr, out)
	}
	r = runOneShotChild(t, data, "", "-p", "second", "--continue", "--base-url", rf.base, "--model", "text", "-q")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("--continue: exit %d, stderr %q (want nothing with -q)", r.code, r.stderr)
	}
	rf.mu.Lock()
	body := string(rf.bodies[len(rf.bodies)-1])
	rf.mu.Unlock()
	if !strings.Contains(body, "first question") || !strings.Contains(body, "plain streamed reply") {
		t.Fatalf("the continued request lacks the history: %s", body)
	}
	if all, _ = store.List(); len(all) != 1 || all[0].Turns != 2 {
		t.Fatalf("after --continue: %+v", all)
	}
}

// TestOneShotInterrupted: SIGINT during a slow reply exits 130 with the partial reply printed.
func TestOneShotInterrupted(t *testing.T) {
	rf := newRecordingFixtures(t, 1, "")
	cmd := oneShotCommand(t, t.TempDir(), t.TempDir(), "-p", "drip", "--base-url", rf.base, "--model", "slow-drip", "--no-save")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(stdout)
	var got strings.Builder
	for !strings.Contains(got.String(), "drip2 ") {
		b, err := br.ReadByte()
		if err != nil {
			t.Fatalf("the reply stopped before the interrupt: %q, %v; stderr %q", got.String(), err, errb.String())
		}
		got.WriteByte(b)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(br)
	got.Write(rest)
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.HasPrefix(got.String(), "drip1 drip2 ") || !strings.Contains(errb.String(), "Interrupted") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, got.String(), errb.String())
	}
}

// TestOneShotGoesOnWithoutAFailedMCPServer: a server that fails at start does not hold the
// answer back for its startup timeout (an hour here: waiting for it would outlast the test);
// the failure is said on stderr and the answer comes.
func TestOneShotGoesOnWithoutAFailedMCPServer(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	servers := filepath.Join(t.TempDir(), "mcp.toml")
	config := "[mcp.exits]\ncommand = \"sh\"\nargs = [\"-c\", \"echo broken >&2; exit 3\"]\nstartup_timeout = \"1h\"\n" +
		"[mcp.missing]\ncommand = \"/nonexistent/mcp-server\"\nstartup_timeout = \"1h\"\n" +
		"[mcp.babbles]\ncommand = \"sh\"\nargs = [\"-c\", \"echo this is not JSON-RPC; sleep 3600\"]\nstartup_timeout = \"1h\"\n"
	if err := os.WriteFile(servers, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runOneShotChild(t, t.TempDir(), "", "-p", "question", "--base-url", rf.base, "--model", "text", "--no-save", "--mcp", servers)
	if r.code != 0 || r.stdout != "Hello! This is a plain streamed reply, sent one word at a time.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, name := range []string{"exits", "missing", "babbles"} {
		if !strings.Contains(r.stderr, "MCP server "+name+" failed to start") {
			t.Errorf("stderr does not say server %s failed: %q", name, r.stderr)
		}
	}
}

// TestOneShotRunsAreMarked: a one-shot run is kept, marked as one-shot, so the session picker
// and `sessions list` leave it out (`sessions list --all` shows it); with save_oneshot = false
// in the config file it is not kept at all.
func TestOneShotRunsAreMarked(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	data := t.TempDir()
	if r := runOneShotChild(t, data, "", "-p", "a question", "--base-url", rf.base, "--model", "text"); r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	store, err := sessions.Open(filepath.Join(data, "phasechat", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := store.List()
	if len(all) != 1 || !all[0].OneShot || len(sessions.Interactive(all)) != 0 {
		t.Fatalf("sessions = %+v, want one, marked one-shot", all)
	}
	var out bytes.Buffer
	if err := sessionsCommand(store, "list", nil, false, false, "", &out); err != nil || strings.Contains(out.String(), all[0].ID) {
		t.Fatalf("sessions list shows a one-shot run (%v):\n%s", err, out.String())
	}
	out.Reset()
	if err := sessionsCommand(store, "list", nil, false, true, "", &out); err != nil || !strings.Contains(out.String(), all[0].ID) {
		t.Fatalf("sessions list --all leaves out a one-shot run (%v):\n%s", err, out.String())
	}

	off := t.TempDir()
	cfg := filepath.Join(off, "config", "phasechat")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "config.toml"), []byte("save_oneshot = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runOneShotChild(t, off, "", "-p", "a question", "--base-url", rf.base, "--model", "text"); r.code != 0 || strings.Contains(r.stderr, "saved as session") {
		t.Fatalf("save_oneshot = false: exit %d, stderr %q", r.code, r.stderr)
	}
	if logs, _ := filepath.Glob(filepath.Join(off, "phasechat", "sessions", "*.jsonl")); len(logs) != 0 {
		t.Fatalf("save_oneshot = false kept %v", logs)
	}
}
