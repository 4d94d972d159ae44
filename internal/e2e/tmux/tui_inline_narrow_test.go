package tmux

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// dripNumber finds the slow-drip scenario's tokens (drip1, drip2, ...).
var dripNumber = regexp.MustCompile(`drip(\d+)`)

// latestDrip is the highest slow-drip token on screen; 0 when there is none.
func latestDrip(screen string) int {
	latest := 0
	for _, m := range dripNumber.FindAllStringSubmatch(screen, -1) {
		n, _ := strconv.Atoi(m[1])
		latest = max(latest, n)
	}
	return latest
}

// resizeWhileStreaming sets the pane's width, then waits until the reply has grown by three
// tokens: frames were drawn at the new width.
func (p *pane) resizeWhileStreaming(width int) {
	p.t.Helper()
	before := latestDrip(p.screen())
	p.run("resize-window", "-t", "e2e", "-x", fmt.Sprint(width))
	p.waitUntil(fmt.Sprintf("drip%d at width %d", before+3, width), func(s string) bool {
		return latestDrip(s) >= before+3
	})
}

// Narrowing the pane twice while a reply streams inline, then widening it: once the reply has
// finished, the scrollback holds it once and, of the live part, only the one drawn last: no
// stale, re-wrapped copy of the status line, the help or the footer.
//
// The screen is full before phasechat starts, so its live part sits at the bottom, as in any
// terminal with some history, and the pane is narrowed while the live part is a few rows tall:
// tmux keeps the last rows of its re-wrapped grid in view, blank ones included, so blank rows
// under the live part, or a re-wrapped live part taller than the screen, would push its top
// rows into the history, out of any program's reach (third_party/bubbletea/PATCHES.md).
func TestTUIInlineNarrowingLeavesNoStaleCopy(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixturesWith(t, fixtures.Options{Pace: 0.5}) // a token every 100ms, for 30s
	p := newPane(t, 100, 24, append(hermeticEnv(t), "PS1=e2e$ "), []string{"sh"})
	p.waitFor("e2e$")
	p.typeLine("seq 101 140")
	p.waitFor("140")

	p.typeLine(shellJoin(fs.chatArgs(t, "slow-drip", "--inline")))
	p.waitFor(idleStatus)
	p.typeLine("drip")
	p.waitUntil("the reply streaming", func(s string) bool { return latestDrip(s) >= 3 })
	p.resizeWhileStreaming(70)
	p.resizeWhileStreaming(45)
	p.resizeWhileStreaming(100)

	history := p.waitHistory("the finished reply", func(s string) bool {
		return strings.Contains(s, "drip300") && strings.Contains(s, "Answer ready.")
	})
	for text, want := range map[string]int{
		"drip1 ":          1, // the reply, printed once
		"drip300":         1,
		"Answer ready.":   1, // the live part drawn last
		"· slow-drip ·":   1, // its footer
		"Writing a reply": 0,
		"Stop · Esc":      0,
		"esc stop":        0, // the help line while streaming
	} {
		if n := strings.Count(history, text); n != want {
			t.Errorf("%q is in the scrollback %d times, want %d", text, n, want)
		}
	}
	if t.Failed() {
		t.Fatalf("the scrollback:\n%s", history)
	}
}
