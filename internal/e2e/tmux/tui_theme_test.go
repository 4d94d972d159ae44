package tmux

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

var sgrSeq = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// reversedAt reports whether the text at label in row (a capture-pane -e row) is drawn
// reversed: SGR 7 was set before it and not turned off since.
func reversedAt(row, label string) bool {
	i := strings.Index(row, label)
	if i < 0 {
		return false
	}
	on := false
	for _, m := range sgrSeq.FindAllStringSubmatch(row[:i], -1) {
		for _, f := range strings.Split(m[1], ";") {
			switch f {
			case "", "0", "27":
				on = false
			case "7":
				on = true
			}
		}
	}
	return on
}

// styledRow is the row of a capture-pane -e screen whose text holds label ("" when none does).
func styledRow(styled, label string) string {
	for _, row := range strings.Split(styled, "\n") {
		if strings.Contains(sgrSeq.ReplaceAllString(row, ""), label) {
			return row
		}
	}
	return ""
}

// With NO_COLOR there is no colour on screen, whatever --theme says, but the focused control
// is still told apart: the focused Retry is reversed, and after Tab moves the focus to the
// composer it is not.
func TestTUINoColorKeepsTheFocusReversed(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := fs.newChatPane(t, 100, 30, "error-frame", "--theme", "light") // hermeticEnv sets NO_COLOR
	p.waitFor(idleStatus)
	p.typeText("hello")
	p.keys("Enter")
	p.waitFor("Retry is available")
	const retry = "[ Retry · Enter ]"
	styledUntil := func(what string, ok func(row string) bool) string {
		t.Helper()
		var styled string
		if !testwait.For(t, func() bool {
			styled = p.run("capture-pane", "-e", "-p", "-t", "e2e")
			return ok(styledRow(styled, retry))
		}) {
			t.Fatalf("the Retry row never %s:\n%q", what, styled)
		}
		return styled
	}
	styled := styledUntil("showed Retry reversed", func(row string) bool { return reversedAt(row, retry) })
	if colourSGR.MatchString(styled) {
		t.Errorf("NO_COLOR: colour on screen:\n%q", styled)
	}
	p.keys("Tab")
	styledUntil("showed Retry unreversed after Tab", func(row string) bool {
		return strings.Contains(sgrSeq.ReplaceAllString(row, ""), retry) && !reversedAt(row, retry)
	})
	p.keys("C-c")
	p.waitExit()
}

// The default theme (auto) asks the terminal for its background: on a pane tmux gives a white
// background the chat draws exactly what --theme light draws, and on a black one what
// --theme dark draws, and the two differ.
func TestTUIFollowsTheTerminalsBackground(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	transcript := func(bg string, extra ...string) string {
		env := withoutVar(hermeticEnv(t), "NO_COLOR")
		// The binary starts once tmux has the pane's background: it asks at start.
		gate := filepath.Join(t.TempDir(), "styled")
		script := "while [ ! -e " + shellJoin([]string{gate}) + " ]; do sleep 0.01; done; exec " +
			shellJoin(fs.chatArgs(t, "text", extra...))
		p := newProgramPane(t, 100, 30, t.TempDir(), env, []string{"sh", "-c", script})
		p.run("set-option", "-w", "-t", "e2e", "window-style", "bg="+bg)
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		p.waitFor(idleStatus)
		p.typeText("hello")
		p.keys("Enter")
		p.waitFor("Answer ready.")
		styled := p.run("capture-pane", "-e", "-p", "-t", "e2e")
		p.keys("C-c")
		p.waitExit()
		rows := strings.Split(styled, "\n")
		for i, row := range rows {
			if strings.Contains(row, "─────") { // the rule under the transcript
				// The turn's tally says how long the reply took, which differs from run to run.
				return turnTime.ReplaceAllString(strings.Join(rows[:i], "\n"), "· TIME")
			}
		}
		t.Fatalf("no rule on screen:\n%q", styled)
		return ""
	}
	autoWhite, light := transcript("colour231"), transcript("colour231", "--theme", "light")
	autoBlack, dark := transcript("colour16"), transcript("colour231", "--theme", "dark")
	if light == dark {
		t.Fatalf("--theme light and dark draw the same transcript:\n%q", light)
	}
	if autoWhite != light {
		t.Errorf("auto on a white background:\n%q\nwant what --theme light draws:\n%q", autoWhite, light)
	}
	if autoBlack != dark {
		t.Errorf("auto on a black background:\n%q\nwant what --theme dark draws:\n%q", autoBlack, dark)
	}
}

// turnTime is the time in a turn's tally line ("text · 514ms").
var turnTime = regexp.MustCompile(`· [0-9.]+m?s\b`)
