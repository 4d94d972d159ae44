package tmux

import (
	"strings"
	"testing"
	"time"
)

// history is the pane's scrollback and screen, as text.
func (p *pane) history() string {
	s := p.run("capture-pane", "-p", "-t", "e2e", "-S", "-")
	p.seen = append(p.seen, s)
	return s
}

// waitHistory polls the scrollback and screen until ok holds for them (timeout stretched as
// waitUntil's is), and returns them.
func (p *pane) waitHistory(timeout time.Duration, what string, ok func(history string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout * loadSlack)
	for {
		s := p.history()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("after %v the scrollback does not show %s:\n%s", timeout*loadSlack, what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The inline mode from a shell: two turns, one with a tool; after Ctrl+C the whole
// conversation is in the terminal's scrollback, in order and once each, the live part (status,
// composer, help) is gone, and what is typed next reaches the shell.
func TestTUIInlineLeavesTheTranscript(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := newPane(t, 80, 16, append(hermeticEnv(t), "PS1=e2e$ "), []string{"sh"})
	p.waitFor(5*time.Second, "e2e$")
	p.typeLine(`printf 'before-%s\n' phasechat`)
	p.waitFor(3*time.Second, "before-phasechat")

	p.typeLine(shellJoin(fs.chatArgs(t, "seed", "--inline")))
	p.waitFor(5*time.Second, idleStatus)
	p.typeLine("what time is it")
	p.waitFor(10*time.Second, "Answer ready.")
	p.typeLine("and once more")
	during := p.waitHistory(10*time.Second, "the second turn printed", func(s string) bool {
		return strings.Contains(s, "› and once more") && strings.Count(s, "Tool results received") == 2 &&
			strings.Contains(s, "Answer ready.")
	})

	p.keys("C-c")
	p.waitHistory(5*time.Second, "the shell's prompt after phasechat", func(s string) bool {
		return strings.Count(s, "e2e$") == 3
	})
	p.typeLine("echo after-$((40+2))")
	p.waitFor(5*time.Second, "after-42")
	after := p.history()

	order := []string{"before-phasechat", "› what time is it", "lookup", "Tool results received", "› and once more", "Tool results received", "e2e$ echo after-", "after-42"}
	at := 0
	for _, want := range order {
		i := strings.Index(after[at:], want)
		if i < 0 {
			t.Fatalf("the scrollback after quitting lacks %q (in order):\n%s", want, after)
		}
		at += i + len(want)
	}
	for _, once := range []string{"› what time is it", "› and once more"} {
		if n := strings.Count(after, once); n != 1 {
			t.Fatalf("%q is in the scrollback %d times:\n%s", once, n, after)
		}
	}
	for _, gone := range []string{"Answer ready.", "│ Message the model", "ctrl+c quit"} {
		if strings.Contains(after, gone) {
			t.Fatalf("the live part (%q) is left in the terminal after quitting:\n%s", gone, after)
		}
	}
	if n := strings.Count(during, "Answer ready."); n != 1 {
		t.Fatalf("the live part scrolled into the scrollback (%d status lines):\n%s", n, during)
	}
	p.neverShowed("pgup")
}
