package reaper

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "" { // the helpers inherit the tests' cache folder
		dir, err := os.MkdirTemp("", "reaper-cache")
		if err != nil {
			panic(err)
		}
		os.Setenv("XDG_CACHE_HOME", dir)
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// helperEnv makes the test binary the process under test (TestHelperStartsARun) and names the
// entry its processes carry, so that the test finds them and nothing else.
const helperEnv = "REAPER_TEST_TAG"

// TestHelperStartsARun is, in a child started by the tests below, a process that registers a
// run (a group of sleeps, one of them gone to a new session through setsid), says "ready" and
// waits to be killed. Run by go test itself, it does nothing.
func TestHelperStartsARun(t *testing.T) {
	tag := os.Getenv(helperEnv)
	if tag == "" {
		t.Skip("only a helper process for the tests of this package")
	}
	mark, err := NewMark()
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	w := Start(mark)
	script := "sleep 3600 & sleep 3600 & exec sleep 3600"
	if _, err := exec.LookPath("setsid"); err == nil {
		script = "setsid sleep 3600 < /dev/null > /dev/null 2>&1 & " + script
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = append(os.Environ(), mark)
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	w.Group(cmd.Process.Pid)
	sup.mu.Lock()
	fmt.Println("ready", sup.cmd.Process.Pid)
	sup.mu.Unlock()
	select {}
}

// startHelper starts the helper with a tag of its own and waits until it says it is ready
// and the run's processes (with the setsid one, where setsid exists) are there to be seen.
func startHelper(t *testing.T) (helper *exec.Cmd, supervisor int, tag string) {
	t.Helper()
	tag = fmt.Sprintf("%s=%d-%s", helperEnv, os.Getpid(), t.Name())
	helper = exec.Command(os.Args[0], "-test.run=^TestHelperStartsARun$")
	helper.Env = append(os.Environ(), tag)
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		helper.Process.Kill()
		helper.Wait()
		for _, p := range marked(tag) {
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	line, _ := bufio.NewReader(out).ReadString('\n')
	if _, err := fmt.Sscanf(line, "ready %d", &supervisor); err != nil {
		t.Fatalf("the helper said %q", line)
	}
	want := 4 // the helper, the group's shell turned sleep and its two sleeps
	if _, err := exec.LookPath("setsid"); err == nil {
		want++
	}
	testwait.Until(t, func() bool { return len(marked(tag)) >= want }, "the run's %d processes did not all start", want)
	return helper, supervisor, tag
}

func TestARunEndsWhenItsProcessIsKilled(t *testing.T) {
	helper, _, tag := startHelper(t)
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	testwait.Until(t, func() bool { return len(marked(tag)) == 0 }, "processes of the run outlived their program: %v", marked(tag))
}

// When the supervisor dies with the program (a SIGKILL to both), the program's runs record is
// left, and the next start's Sweep ends what it names and says so.
func TestSweepEndsTheRunsOfAProgramThatDiedWithItsSupervisor(t *testing.T) {
	helper, supervisor, tag := startHelper(t)
	pid := helper.Process.Pid
	syscall.Kill(supervisor, syscall.SIGKILL)
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	if len(marked(tag)) == 0 {
		t.Fatal("nothing of the run was left to sweep")
	}
	left := Sweep()
	var ended int
	for _, l := range left {
		if l.PID == pid {
			ended = l.Ended
		}
	}
	if ended < 3 {
		t.Fatalf("Sweep reported %+v, want the helper's %d processes or more", left, 3)
	}
	testwait.Until(t, func() bool { return len(marked(tag)) == 0 }, "processes of the run outlived the sweep: %v", marked(tag))
	if again := Sweep(); len(again) != 0 {
		t.Fatalf("a second sweep reported %+v", again)
	}
}

func TestAKilledSupervisorIsReplacedAndToldTheLiveRuns(t *testing.T) {
	mark, err := NewMark()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), mark)
	ownGroup(cmd)
	w := Start(mark)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Group(cmd.Process.Pid)
	sup.mu.Lock()
	first := sup.cmd
	sup.mu.Unlock()
	first.Process.Kill()
	first.Wait() // its pipe is now broken: the next line starts another
	second := Start("")
	defer second.End()
	sup.mu.Lock()
	replaced := sup.cmd != nil && sup.cmd != first
	next := sup.cmd
	sup.mu.Unlock()
	if !replaced {
		t.Fatal("no new supervisor after the first was killed")
	}
	// The new one knows the sleep's run: closing its pipe, as our death would, ends it.
	sup.mu.Lock()
	sup.pipe.Close()
	sup.pipe, sup.cmd = nil, nil
	sup.mu.Unlock()
	next.Wait()
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the run's process ended with %v, want killed", err)
	}
	w.End()
}
