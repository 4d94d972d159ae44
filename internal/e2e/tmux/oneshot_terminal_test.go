package tmux

import (
	"regexp"
	"testing"
)

// One-shot mode with stdout and stderr on one terminal: a tool notice said while the reply's
// line is open starts on a line of its own instead of running on from the reply's text.
func TestOneShotNoticesStartTheirOwnLine(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := newProgramPane(t, 100, 20, t.TempDir(), hermeticEnv(t), fs.chatArgs(t, "text-then-tool", "-p", "hi", "--no-save"))
	screen := p.waitFor(exitLine)
	if !regexp.MustCompile(`(?m)^phasechat: Running now`).MatchString(screen) {
		t.Fatalf("the tool notice does not start a line:\n%s", screen)
	}
}
