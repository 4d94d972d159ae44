package tmux

import (
	"regexp"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

var moreLines = regexp.MustCompile(`─── ↓ [0-9,]+ more lines · End follows`)

// The first screen, then a 2,000-line reply in a real terminal: Home shows its top and the
// rule says how far the end is, End goes back to the end, F1 opens the key list over the
// transcript and Esc closes it.
func TestTUIHomeEndAndTheKeyList(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixturesWith(t, fixtures.Options{})
	p := fs.newChatPane(t, 80, 24, "long")
	p.waitFor(idleStatus, "phasechat — a terminal chat", "Model     long")
	p.typeText("count")
	p.keys("Enter")
	screen := p.waitFor("Answer ready.", "Line 2000:")
	if strings.Contains(screen, "phasechat — a terminal chat") || moreLines.MatchString(screen) {
		t.Fatalf("the first screen or the indicator at the end:\n%s", screen)
	}

	p.keys("Home")
	screen = p.waitUntil("the top with the indicator", func(s string) bool {
		return strings.HasPrefix(s, "› count") && moreLines.MatchString(s)
	})
	if strings.Contains(screen, "Line 2000:") {
		t.Fatalf("Home shows the end:\n%s", screen)
	}
	p.keys("End")
	p.waitUntil("the end without the indicator", func(s string) bool {
		return strings.Contains(s, "Line 2000:") && !moreLines.MatchString(s)
	})

	p.keys("F1")
	screen = p.waitFor("Keys — Esc, ? or F1 closes this list", "pgup/pgdn", "ctrl+j")
	if strings.Contains(screen, "Line 2000:") {
		t.Fatalf("the key list does not cover the transcript:\n%s", screen)
	}
	p.keys("Escape")
	p.waitUntil("the key list closed", func(s string) bool {
		return !strings.Contains(s, "Keys — Esc") && strings.Contains(s, "Line 2000:")
	})
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s after Ctrl+C", status)
	}
}
