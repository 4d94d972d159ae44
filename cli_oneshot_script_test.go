//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/sessions"
)

// unconfigured is phasechat with args in an environment that names no endpoint: no key, no
// base URL, no config file.
func unconfigured(t *testing.T, data string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := oneShotCommand(t, t.TempDir(), data, args...)
	cmd.Env = append(cmd.Env, "OPENAI_BASE_URL=", "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal: /dev/tty cannot be opened
	return cmd
}

func runCmd(t *testing.T, cmd *exec.Cmd) childRun {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(""), &out, &errb
	if err := cmd.Run(); err != nil {
		if _, exited := err.(*exec.ExitError); !exited {
			t.Fatal(err)
		}
	}
	return childRun{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
}

// TestOneShotUsesTheDemoOnlyWhenAsked: with nothing configured -p says how to configure an
// endpoint and exits 2, instead of printing the demo's scripted answer as if a model had
// given it; --base-url demo and -m demo ask for the demo.
func TestOneShotUsesTheDemoOnlyWhenAsked(t *testing.T) {
	data := t.TempDir()
	r := runCmd(t, unconfigured(t, data, "-p", "hi", "--no-save"))
	if r.code != 2 || r.stdout != "" {
		t.Fatalf("nothing configured: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"OPENAI_API_KEY", "--base-url", filepath.Join(data, "config", "phasechat", "config.toml"), "--base-url demo"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q does not say %q", r.stderr, want)
		}
	}
	for _, asked := range [][]string{{"--base-url", "demo"}, {"-m", "demo"}} {
		r := runCmd(t, unconfigured(t, t.TempDir(), append([]string{"-p", "hi", "--no-save"}, asked...)...))
		if r.code != 0 || strings.TrimSpace(r.stdout) == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", asked, r.code, r.stdout, r.stderr)
		}
	}
}

// TestOneShotFlagsWithoutPAreUsageErrors: -q and --format without -p are mistakes said at
// once (exit 2), not an interactive chat started in a script.
func TestOneShotFlagsWithoutPAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-q"}, {"--format", "json"}, {"--base-url", "demo", "--format=jsonl"}} {
		r := runCmd(t, unconfigured(t, t.TempDir(), args...))
		if r.code != 2 || !strings.Contains(r.stderr, "is for one-shot mode: add -p") || strings.Contains(r.stderr, "TTY") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestOneShotJSONCarriesEveryField: the object has every field even when it is empty, as each
// jsonl event has its own.
func TestOneShotJSONCarriesEveryField(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	r := runOneShotChild(t, t.TempDir(), "", "-p", "q", "--base-url", rf.base, "--model", "text", "--format", "json", "--no-save")
	var fields map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &fields); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %v: %s", r.code, err, r.stdout)
	}
	for _, name := range []string{"content", "reasoning", "tool_calls", "usage", "outcome", "exit_code", "error", "session"} {
		if _, ok := fields[name]; !ok {
			t.Errorf("the object has no %q: %s", name, r.stdout)
		}
	}
}

// TestOneShotStdoutClosedByItsReader: a reader that closes the pipe (| head -c 10) ends the
// turn: the process exits with a status, not by SIGPIPE, says why on stderr, and the partial
// reply is saved.
func TestOneShotStdoutClosedByItsReader(t *testing.T) {
	rf := newRecordingFixtures(t, 1, "")
	data := t.TempDir()
	cmd := oneShotCommand(t, t.TempDir(), data, "-p", "drip", "--base-url", rf.base, "--model", "slow-drip")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb syncBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(stdout)
	var got strings.Builder
	for !strings.Contains(got.String(), "drip2 ") {
		b, err := br.ReadByte()
		if err != nil {
			t.Fatalf("the reply stopped early: %q, %v; stderr %q", got.String(), err, errb.String())
		}
		got.WriteByte(b)
	}
	stdout.Close()
	_ = cmd.Wait()
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() {
		t.Fatalf("the process died of %v; stderr %q", ws.Signal(), errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(errb.String(), "Standard output was closed") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	store, err := sessions.Open(filepath.Join(data, "phasechat", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := store.List()
	if len(all) != 1 {
		t.Fatalf("sessions %+v; stderr %q", all, errb.String())
	}
	saved, err := store.Load(all[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := len(saved.Messages); n != 2 || !strings.HasPrefix(saved.Messages[1].Text(), "drip1 drip2 ") {
		t.Fatalf("saved %+v", saved.Messages)
	}
}

// TestOneShotSaysWhenStdinStaysSilent: -p with a prompt and a pipe on stdin that sends nothing
// says once that it is still reading it, then sends what the pipe gave once it closes.
func TestOneShotSaysWhenStdinStaysSilent(t *testing.T) {
	rf := newRecordingFixtures(t, 0, "")
	cmd := oneShotCommand(t, t.TempDir(), t.TempDir(), "-p", "summarise", "--base-url", rf.base, "--model", "text", "--no-save")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb syncBuffer
	cmd.Stdout, cmd.Stderr = io.Discard, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const notice = "still reading standard input"
	if !testwait.For(t, func() bool { return strings.Contains(errb.String(), notice) }) {
		cmd.Process.Kill()
		t.Fatalf("nothing said of the silent input: %q", errb.String())
	}
	io.WriteString(stdin, "late context\n")
	stdin.Close()
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 || rf.lastUserMessage(t) != "late context\n\nsummarise" {
		t.Fatalf("exit %d, sent %q, stderr %q", code, rf.lastUserMessage(t), errb.String())
	}
	if n := strings.Count(errb.String(), notice); n != 1 {
		t.Fatalf("said %d times: %q", n, errb.String())
	}
}
