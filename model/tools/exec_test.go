//go:build unix

package tools

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

func TestCommandGetsTheExactArgumentsOnStdinAndNoShellInterpretsThem(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "capture", `cat > got.json; echo captured`, "2m", false)
	hostile := `{"cmd": "x; rm -rf ./victim; touch pwned1", "sub": "$(touch pwned2) ` + "`touch pwned3`" + `", "q": "'\"; touch pwned4"}`
	for _, tc := range []struct{ args, stdin string }{
		{hostile, hostile},
		{"", "{}"},
		{`  "just text"  `, `{"value":"just text"}`},
		{`[1, 2]`, `{"value":[1, 2]}`},
	} {
		writeFile(t, filepath.Join(r.Root(), "victim", "keep"), "x")
		res := run(t, r, "capture", tc.args)
		wantOutcome(t, res, OutcomeOK)
		if res.Output != "captured\n" || res.ExitCode != 0 {
			t.Fatalf("result %+v", res)
		}
		got, err := os.ReadFile(filepath.Join(r.Root(), "got.json"))
		if err != nil || string(got) != tc.stdin {
			t.Fatalf("stdin was %q (%v), want %q", got, err, tc.stdin)
		}
	}
	for _, f := range []string{"pwned1", "pwned2", "pwned3", "pwned4"} {
		if _, err := os.Stat(filepath.Join(r.Root(), f)); err == nil {
			t.Errorf("%s exists: the arguments were interpreted", f)
		}
	}
	if _, err := os.Stat(filepath.Join(r.Root(), "victim", "keep")); err != nil {
		t.Error("victim/keep was removed: the arguments were interpreted")
	}
}

func TestCommandFailureCarriesOutputAndExitStatus(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "fails", "echo to-stdout; echo to-stderr >&2; exit 3", "2m", false)
	res := run(t, r, "fails", "")
	wantOutcome(t, res, OutcomeFailed)
	if res.ExitCode != 3 {
		t.Errorf("exit code %d, want 3", res.ExitCode)
	}
	want := "to-stdout\nto-stderr\n\n[fails failed: exit status 3]"
	if res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
}

func TestCommandSuccessWithoutOutputSaysSo(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "quiet", "exit 0", "2m", false)
	if res := run(t, r, "quiet", ""); res.Output != "(no output)" || res.Outcome != OutcomeOK {
		t.Fatalf("%+v", res)
	}
}

func TestCommandThatCannotStartIsAFailedResult(t *testing.T) {
	r := newTestRegistry(t, "")
	addTools(t, r, `[[tool]]
name = "ghost"
description = "d"
argv = ["/nonexistent/phasechat-ghost"]
side_effects = false`)
	res := run(t, r, "ghost", "")
	wantOutcome(t, res, OutcomeFailed)
	if !strings.HasPrefix(res.Output, "could not start ghost: ") || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
}

func TestCommandEnvironmentLacksTheAPIKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret")
	t.Setenv("PHASECHAT_TEST_VISIBLE", "yes")
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "env", `echo "key=[$OPENAI_API_KEY] other=[$PHASECHAT_TEST_VISIBLE]"`, "2m", false)
	if res := run(t, r, "env", ""); res.Output != "key=[] other=[yes]\n" {
		t.Fatalf("output %q", res.Output)
	}
}

func TestCommandThatIgnoresLargeArgumentsDoesNotHang(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "deaf", "echo done", "2m", false)
	big := `{"blob": "` + strings.Repeat("x", 1<<20) + `"}` // far more than a pipe buffer
	res := run(t, r, "deaf", big)
	wantOutcome(t, res, OutcomeOK)
}

// pidFrom waits, as long as the test's patience lasts, for a pid file a running script writes
// and returns the pid.
func pidFrom(t *testing.T, path string) int {
	t.Helper()
	var pid int
	testwait.Until(t, func() bool {
		var ok bool
		pid, ok = readPid(path)
		return ok
	}, "%s was never written", path)
	return pid
}

// waitGone waits, as long as the test's patience lasts, until pid no longer runs: it does not
// exist, or it is a zombie waiting for a reaper that may not be init in a container.
func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	gone := testwait.For(t, func() bool {
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			return true
		}
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(fields) > 0 && fields[0] == "Z" {
				return true
			}
		}
		return false
	})
	if !gone {
		syscall.Kill(pid, syscall.SIGKILL) // leave nothing behind
		t.Fatalf("%s (pid %d) is still running", what, pid)
	}
}

// groupScript says it started, starts a background grandchild, records both pids (each file
// complete once it ends in a newline), then waits forever.
const groupScript = `echo started
sleep 30 &
echo $! > grandchild.pid
echo $$ > child.pid
wait
`

func TestTimeoutKillsTheWholeProcessGroup(t *testing.T) {
	// On a loaded machine the 300ms may pass before the script has started its grandchild,
	// which proves nothing about the group; such attempts are retried.
	for attempt := 1; attempt <= 5; attempt++ {
		r := newTestRegistry(t, "")
		addScriptTool(t, r, "hang", groupScript, "300ms", false)
		res := run(t, r, "hang", "")
		wantOutcome(t, res, OutcomeTimedOut)
		if !strings.HasPrefix(res.Output, "hang timed out after 300ms and was stopped") || res.ExitCode != -1 {
			t.Fatalf("output %q (exit %d)", res.Output, res.ExitCode)
		}
		child, childOK := readPid(filepath.Join(r.Root(), "child.pid"))
		grandchild, grandchildOK := readPid(filepath.Join(r.Root(), "grandchild.pid"))
		if !childOK || !grandchildOK {
			t.Logf("attempt %d: the timeout came before the script started its grandchild; retrying", attempt)
			continue
		}
		if res.Output != "hang timed out after 300ms and was stopped; its output until then:\nstarted\n" {
			t.Fatalf("output %q", res.Output)
		}
		waitGone(t, "the command", child)
		waitGone(t, "its background grandchild", grandchild)
		return
	}
	t.Fatal("in 5 attempts the script never started its grandchild within 300ms")
}

// readPid reads a complete pid file.
func readPid(path string) (int, bool) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(string(b), "\n") {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid, err == nil
}

func TestCancelKillsTheWholeProcessGroupAndSaysTheUserStoppedIt(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "hang", groupScript, "30s", false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result)
	go func() { done <- r.Run(ctx, Call{Name: "hang"}) }()
	grandchild := pidFrom(t, filepath.Join(r.Root(), "grandchild.pid"))
	child := pidFrom(t, filepath.Join(r.Root(), "child.pid"))
	cancel()
	res := <-done
	wantOutcome(t, res, OutcomeStopped)
	if want := "hang was stopped by the user; its output until then:\nstarted\n"; res.Output != want {
		t.Fatalf("output %q, want %q", res.Output, want)
	}
	waitGone(t, "the command", child)
	waitGone(t, "its background grandchild", grandchild)
}

func TestCancelBeforeStartRunsNothing(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "mark", "touch marker", "2m", true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := r.Run(ctx, Call{Name: "mark"})
	wantOutcome(t, res, OutcomeStopped)
	if _, err := os.Stat(filepath.Join(r.Root(), "marker")); err == nil {
		t.Fatal("the tool ran after its context ended")
	}
}

func TestBackgroundProcessLeftByAFinishedCommandIsKilled(t *testing.T) {
	r := newTestRegistry(t, "")
	// The grandchild keeps stdout open: without the group kill, Run would wait for it.
	addScriptTool(t, r, "leaver", "sleep 30 &\necho $! > bg.pid\necho finished", "2m", false)
	res := run(t, r, "leaver", "")
	wantOutcome(t, res, OutcomeOK)
	if res.Output != "finished\n" {
		t.Fatalf("output %q", res.Output)
	}
	waitGone(t, "the background process", pidFrom(t, filepath.Join(r.Root(), "bg.pid")))
}

func TestProcessThatLeftTheGroupCannotHoldTheRunOpen(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) is not installed")
	}
	r := newTestRegistry(t, "")
	// The script ends only once the child has written its pid, which it does after setsid: by
	// then it has left the group, however slowly a loaded machine starts it.
	addScriptTool(t, r, "escaper", "setsid sh -c 'echo $$ > escaped.pid.tmp; mv escaped.pid.tmp escaped.pid; exec sleep 30' &\nwhile [ ! -e escaped.pid ]; do sleep 0.01; done\necho finished", "10m", false)
	res := run(t, r, "escaper", "")
	escaped := pidFrom(t, filepath.Join(r.Root(), "escaped.pid"))
	defer syscall.Kill(escaped, syscall.SIGKILL)
	wantOutcome(t, res, OutcomeOK)
	if !strings.HasPrefix(res.Output, "finished\n") || !strings.Contains(res.Output, "left 1 background process running outside its process group; ended") {
		t.Fatalf("output %q", res.Output)
	}
	waitGone(t, "the setsid child", escaped)
}

// The three runs can only all succeed if they overlap: each waits until all three have
// started, and gives up (failing) after 60 s — so run one after another, the first would fail.
// The window is far longer than a loaded machine takes to start three processes.
func TestRunsOverlapWhenCalledInParallel(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "rendezvous", `mkdir -p started
: > "started/$$"
giveup=$(($(date +%s) + 60))
while [ "$(ls started | wc -l)" -lt 3 ]; do
  if [ "$(date +%s)" -gt $giveup ]; then echo "alone after 60s"; exit 1; fi
  sleep 0.01
done
echo met`, "10m", false)
	var wg sync.WaitGroup
	results := make([]Result, 3)
	for i := range results {
		wg.Go(func() {
			results[i] = r.Run(context.Background(), Call{ID: strconv.Itoa(i), Name: "rendezvous"})
		})
	}
	wg.Wait()
	for i, res := range results {
		if res.Outcome != OutcomeOK || res.Output != "met\n" || res.CallID != strconv.Itoa(i) {
			t.Errorf("run %d: %+v", i, res)
		}
		if res.Duration <= 0 {
			t.Errorf("run %d recorded no duration", i)
		}
	}
}

func TestCommandOutputIsCappedKeepingHeadAndTail(t *testing.T) {
	r := newTestRegistry(t, "")
	r.MaxOutput = 1000
	addScriptTool(t, r, "flood", `echo BEGIN
i=0; while [ $i -lt 3000 ]; do printf 'é'; i=$((i+1)); done
echo; echo END`, "2m", false)
	res := run(t, r, "flood", "")
	wantOutcome(t, res, OutcomeOK)
	head, tail, ok := strings.Cut(res.Output, "\n… [")
	if !ok || !strings.HasPrefix(head, "BEGIN\n") || !strings.HasSuffix(tail, "\nEND\n") {
		t.Fatalf("output does not keep head and tail around a marker:\n%s", res.Output)
	}
	if !strings.Contains(tail, " bytes omitted] …\n") || len(res.Output) > 1100 {
		t.Fatalf("marker or size wrong (%d bytes):\n%s", len(res.Output), res.Output)
	}
	if strings.ContainsRune(res.Output, '\uFFFD') {
		t.Fatal("the cut split a rune")
	}
}

// A child that left the process group (setsid) is still ended at the tool's timeout.
func TestTimeoutEndsAChildThatCalledSetsid(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("descendants are found through /proc on Linux only")
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) is not installed")
	}
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "hider", "setsid sh -c 'echo $$ > hidden.pid; exec sleep 30' &\nwhile [ ! -s hidden.pid ]; do sleep 0.01; done\nsleep 30", "300ms", false)
	res := run(t, r, "hider", "")
	wantOutcome(t, res, OutcomeTimedOut)
	waitGone(t, "the setsid child", pidFrom(t, filepath.Join(r.Root(), "hidden.pid")))
}
