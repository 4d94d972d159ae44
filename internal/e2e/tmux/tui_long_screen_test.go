package tmux

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
)

var (
	// insertCells is ICH, the terminal's "insert blank cells here" (CSI n @).
	insertCells = regexp.MustCompile(`\x1b\[[0-9]*@`)
	replyRow    = regexp.MustCompile(`Line ([0-9]+):`)
)

// After the 2,000-line reply, the screen a real terminal shows is the program's view: the
// renderer moved the rows whose line numbers gained digits by inserting cells, every reply row
// reads whole, and a full repaint of the same view (a resize there and back) changes nothing.
func TestTUILongReplyScreenMatchesView(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixturesWith(t, fixtures.Options{})
	p := fs.newChatPane(t, 120, 40, "long")
	p.waitFor(idleStatus)

	// The reply stops after line 39 until the screen shows two-digit line numbers, so that the
	// rows showing them later show four-digit ones: each such row's tail moves right.
	const twoDigits = "Line 35: the quick brown fox jumps over the lazy dog."
	fs.holdFrame(201, func() bool {
		out, err := p.try("capture-pane", "-p", "-t", "e2e")
		return err == nil && strings.Contains(string(out), twoDigits)
	})
	p.typeLine("count")
	screen := p.waitFor("Answer ready.", "Line 2000:")
	if fs.gateMissed.Load() {
		t.Fatalf("the screen never showed %q while the reply was held", twoDigits)
	}
	if !insertCells.MatchString(p.raw()) {
		t.Fatalf("no row was shifted with inserted cells; the terminal received:\n%q", p.raw())
	}

	next := 0
	for _, row := range strings.Split(screen, "\n") {
		m := replyRow.FindStringSubmatch(row)
		if m == nil {
			continue
		}
		var n int
		fmt.Sscan(m[1], &n)
		if next != 0 && n != next {
			t.Fatalf("line %d follows line %d:\n%s", n, next-1, screen)
		}
		if want := fmt.Sprintf("  Line %d: the quick brown fox jumps over the lazy dog.", n); row != want {
			t.Fatalf("row %q, want %q:\n%s", row, want, screen)
		}
		next = n + 1
	}
	if next != 2001 {
		t.Fatalf("the reply rows end before line 2000:\n%s", screen)
	}

	// A resize makes the program erase the screen and draw its whole view again, without the
	// line diff: back at 120 columns, that repaint is the screen the diffs left. Each resize is
	// waited out to its repaint's end (tmux shows its own reflow of the old screen before it).
	repaint := func(from int) int {
		t.Helper()
		if !testwait.For(t, func() bool {
			out := p.raw()[from:]
			clear := strings.LastIndex(out, "\x1b[2J")
			return clear >= 0 && strings.Contains(out[clear:], "Answer ready.") && strings.Contains(out[clear:], "\x1b[?25h")
		}) {
			t.Fatalf("no full repaint after the resize; the terminal received:\n%q", p.raw()[from:])
		}
		return len(p.raw())
	}
	at := len(p.raw())
	p.run("resize-window", "-t", "e2e", "-x", "121")
	at = repaint(at)
	p.run("resize-window", "-t", "e2e", "-x", "120")
	repaint(at)
	var again string
	if !testwait.For(t, func() bool { again = p.screen(); return again == screen }) {
		t.Fatalf("the screen the diffs left:\n%s\na full repaint of the view:\n%s", screen, again)
	}
}
