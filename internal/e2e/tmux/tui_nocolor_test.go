package tmux

import (
	"regexp"
	"testing"
)

// colourSGR matches an SGR sequence that sets a foreground or background colour. 39 and 49
// (back to the terminal's own colours) are not colours: tmux's capture-pane -e writes them
// after every reset of bold or reverse.
var colourSGR = regexp.MustCompile(`\x1b\[(?:[0-9]*;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)

// NO_COLOR (no-color.org) turns every colour off in the full-screen chat, not the emphasis;
// without it the chat is coloured. Read from tmux with the pane's attributes (capture-pane -e).
func TestTUINoColor(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	for _, noColor := range []bool{true, false} {
		env := hermeticEnv(t)
		if !noColor {
			env = withoutVar(env, "NO_COLOR")
		}
		p := newProgramPane(t, 100, 30, t.TempDir(), env, fs.chatArgs(t, "text"))
		p.waitFor(idleStatus)
		p.typeText("hello")
		p.keys("Enter")
		p.waitFor("Answer ready.")
		styled := p.run("capture-pane", "-e", "-p", "-t", "e2e")
		if got := colourSGR.MatchString(styled); got == noColor {
			t.Errorf("NO_COLOR set %v: colour on screen %v:\n%q", noColor, got, styled)
		}
		p.keys("C-c")
		p.waitExit()
	}
}
