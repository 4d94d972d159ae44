package tmux

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

// history is the pane's scrollback and screen, as text.
func (p *pane) history() string {
	s := p.run("capture-pane", "-p", "-t", "e2e", "-S", "-")
	p.seen = append(p.seen, s)
	return s
}

// waitHistory polls the scrollback and screen until ok holds for them, failing with them when
// the test's patience runs out, and returns them.
func (p *pane) waitHistory(what string, ok func(history string) bool) string {
	p.t.Helper()
	var s string
	if !testwait.For(p.t, func() bool { s = p.history(); return ok(s) }) {
		p.t.Fatalf("the scrollback does not show %s:\n%s", what, s)
	}
	return s
}

// The inline mode from a shell: two turns, one with a tool; after Ctrl+C the whole
// conversation is in the terminal's scrollback, in order and once each, the live part (status,
// composer, help) is gone, and what is typed next reaches the shell.
func TestTUIInlineLeavesTheTranscript(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := newPane(t, 80, 16, append(hermeticEnv(t), "PS1=e2e$ "), []string{"sh"})
	p.waitFor("e2e$")
	p.typeLine(`printf 'before-%s\n' phasechat`)
	p.waitFor("before-phasechat")

	p.typeLine(shellJoin(fs.chatArgs(t, "seed", "--inline")))
	p.waitFor(idleStatus)
	p.typeLine("what time is it")
	p.waitFor("Answer ready.")
	p.typeLine("and once more")
	during := p.waitHistory("the second turn printed", func(s string) bool {
		return strings.Contains(s, "› and once more") && strings.Count(s, "Tool results received") == 2 &&
			strings.Contains(s, "Answer ready.")
	})

	p.keys("C-c")
	p.waitHistory("the shell's prompt after phasechat", func(s string) bool {
		return strings.Count(s, "e2e$") == 3
	})
	p.typeLine("echo after-$((40+2))")
	p.waitFor("after-42")
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
