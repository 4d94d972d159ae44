package tools

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// doubleFork starts a process that leaves the tool's process group and its process tree: a
// new session whose leader exits at once, leaving its child to be adopted by init. The
// child records its pid in deep.pid and sleeps.
const doubleFork = `setsid sh -c 'sleep 30 > /dev/null 2>&1 < /dev/null & echo $! > deep.pid' > /dev/null 2>&1 < /dev/null &
while [ ! -s deep.pid ]; do sleep 0.01; done
`

// leftBehind is the note a run's output gets when processes outside its group were ended.
var leftBehind = regexp.MustCompile(`\[daemon left [12] background process(es)? running outside its process group; ended\]`)

func needSetsid(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid(1) is not installed")
	}
}

func TestTimeoutEndsADoubleForkedSetsidChild(t *testing.T) {
	needSetsid(t)
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "hider", doubleFork+"sleep 30", "5s", false)
	res := run(t, r, "hider", "")
	wantOutcome(t, res, OutcomeTimedOut)
	waitGone(t, "the double-forked child", pidFrom(t, filepath.Join(r.Root(), "deep.pid")))
}

func TestStopEndsADoubleForkedSetsidChild(t *testing.T) {
	needSetsid(t)
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "hider", doubleFork+"echo $$ > ready\nsleep 30", "30s", false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() { done <- r.Run(ctx, Call{Name: "hider"}) }()
	pidFrom(t, filepath.Join(r.Root(), "ready")) // waits for the file
	cancel()                                     // Esc, or quitting, ends the turn so
	r.Wait()                                     // and a quitting program waits for this
	wantOutcome(t, <-done, OutcomeStopped)
	waitGone(t, "the double-forked child", pidFrom(t, filepath.Join(r.Root(), "deep.pid")))
}

func TestFinishedCommandLeavesNoDoubleForkedChild(t *testing.T) {
	needSetsid(t)
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "daemon", doubleFork+"echo finished", "30s", false)
	res := run(t, r, "daemon", "")
	wantOutcome(t, res, OutcomeOK)
	// The setsid shell between the tool and its grandchild may not have exited yet on a loaded
	// machine, so one or two processes are found and ended.
	if !strings.HasPrefix(res.Output, "finished\n") || !leftBehind.MatchString(res.Output) {
		t.Fatalf("output %q", res.Output)
	}
	waitGone(t, "the double-forked child", pidFrom(t, filepath.Join(r.Root(), "deep.pid")))
}

func TestRunMarkerIsNotInheritedFromOurEnvironment(t *testing.T) {
	t.Setenv(RunMarkerEnv, "outer")
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "env", "env", "2m", false)
	res := run(t, r, "env", "")
	wantOutcome(t, res, OutcomeOK)
	if strings.Contains(res.Output, RunMarkerEnv+"=outer") || strings.Count(res.Output, RunMarkerEnv+"=") != 1 {
		t.Fatalf("the run's environment holds %d markers, or the outer one:\n%s", strings.Count(res.Output, RunMarkerEnv+"="), res.Output)
	}
}
