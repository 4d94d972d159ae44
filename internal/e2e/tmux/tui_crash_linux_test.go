package tmux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase"
)

// The full-screen chat killed with SIGKILL while an approval question waits: the tool never
// ran, the saved conversation says it was declined unanswered and the reply interrupted, and
// the next request continues it with a history a strict server accepts.
func TestTUIKilledWhileAskingResumesDeclined(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	tools, err := filepath.Abs(approvalTools)
	if err != nil {
		t.Fatal(err)
	}
	fs := startFixturesWith(t, fixtures.Options{Dir: approvalDir})
	env := hermeticEnv(t)
	home := strings.TrimPrefix(env[0], "HOME=")
	dir := t.TempDir()
	p := newProgramPane(t, 120, 30, dir, env, fs.chatArgs(t, "mark", "--tools", tools))
	p.waitFor(idleStatus)
	p.typeLine("note hi")
	p.waitFor("Allow mark")
	unanswered := phase.NotRunUnanswered.Text()
	testwait.Until(t, func() bool {
		log, ok := readLogIn(home)
		return ok && len(log.Messages) == 3 && log.Messages[2].Text() == unanswered
	}, "the log never held the question")

	shell, _ := strconv.Atoi(strings.TrimSpace(p.display("#{pane_pid}")))
	for _, pid := range childrenOf(shell) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if got := p.waitExit(); got != "137" {
		t.Fatalf("exit status %s after SIGKILL; the terminal received:\n%s", got, p.raw())
	}
	if _, err := os.Stat(filepath.Join(dir, "marker.txt")); err == nil {
		t.Fatal("the tool ran without an answer")
	}
	log, _ := readLogIn(home)
	if reply := log.Messages[1]; reply.End.Why != phase.EndCrashed || !reply.HasCalls() {
		t.Fatalf("the reply after the kill: %+v", reply)
	}

	show := exec.Command(phasechatBinary(t), "sessions", "show", strings.TrimSuffix(filepath.Base(logIn(home)), ".jsonl"))
	show.Env = env
	if out, err := show.CombinedOutput(); err != nil || !strings.Contains(string(out), unanswered) ||
		!strings.Contains(string(out), "interrupted: phasechat stopped unexpectedly") {
		t.Fatalf("sessions show: %v\n%s", err, out)
	}
	resume := exec.Command(phasechatBinary(t), "--continue", "-p", "go on", "--base-url", fs.URL+"/v1", "--model", "strict-history")
	resume.Dir, resume.Env = dir, env
	if out, err := resume.CombinedOutput(); err != nil || !strings.Contains(string(out), "Accepted.") {
		t.Fatalf("--continue -p after the kill: %v\n%s", err, out)
	}
}

// logIn is the one session log under home's data folder; "" while there is none.
func logIn(home string) string {
	found, _ := filepath.Glob(filepath.Join(home, ".local", "share", "phasechat", "sessions", "*.jsonl"))
	for _, f := range found {
		if filepath.Base(f) != "index.jsonl" {
			return f
		}
	}
	return ""
}

func readLogIn(home string) (sessionlog.Log, bool) {
	path := logIn(home)
	if path == "" {
		return sessionlog.Log{}, false
	}
	log, err := sessionlog.Read(path)
	return log, err == nil
}
