package tmux

import (
	"strings"
	"testing"
)

// Ctrl+Z in the full-screen chat, run from a shell with job control, stops phasechat as a job
// with the terminal given back (no alternate screen, no mouse reporting: the shell's prompt is
// on the screen), and fg brings the chat back whole, over what the shell printed meanwhile,
// with the reply still streaming.
func TestTUICtrlZSuspendsAndFgBringsTheScreenBack(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := newPane(t, 100, 30, append(hermeticEnv(t), "PS1=e2e$ "), []string{"sh", "-i"})
	p.waitFor("e2e$")
	p.typeText(shellJoin(fs.chatArgs(t, "slow-drip")))
	p.keys("Enter")
	p.waitFor(idleStatus)
	p.typeText("drip please")
	p.keys("Enter")
	p.waitFor("drip2", "[ Stop · Esc ]")

	p.keys("C-z")
	p.waitUntil("the shell's prompt, the chat gone", func(s string) bool {
		return strings.HasSuffix(strings.TrimRight(s, "\n "), "e2e$") && !strings.Contains(s, "[ Stop · Esc ]")
	})
	if modes := p.display(terminalModes); !strings.Contains(modes, " alt=0 mouse=000000 ") {
		t.Fatalf("stopped, phasechat left the alternate screen or the mouse on: %s", modes)
	}
	p.typeText("echo shell-had-the-terminal")
	p.keys("Enter")
	p.waitFor("shell-had-the-terminal\n")

	p.typeText("fg")
	p.keys("Enter")
	p.waitUntil("the whole chat again, the reply going on", func(s string) bool {
		return strings.Contains(s, "› drip please") && strings.Contains(s, "drip2 ") &&
			strings.Contains(s, "[ Stop · Esc ]") && !strings.Contains(s, "shell-had-the-terminal") &&
			!strings.Contains(s, "e2e$")
	})
	before := fs.latestFrames()
	p.waitUntil("more of the reply", func(string) bool { return fs.latestFrames() > before+2 })
	p.keys("Escape")
	p.waitFor("Stopped. The partial reply is kept.")
}

// Run by the terminal itself, with no shell whose fg could continue it, Ctrl+Z leaves the chat
// running: the kernel drops the stop of such a process group, and a suspend would wait for
// ever with the terminal given back.
func TestTUICtrlZWithoutAShellKeepsTheChat(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := newPane(t, 100, 30, hermeticEnv(t), fs.chatArgs(t, "text"))
	p.waitFor(idleStatus)
	p.keys("C-z")
	p.typeText("hello")
	p.keys("Enter")
	p.waitFor("› hello", "Answer ready.")
}
