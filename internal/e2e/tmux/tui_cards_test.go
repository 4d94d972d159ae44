package tmux

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The parallel-tools reply in a real terminal: Alt+Up walks the card selection from the
// newest card up to the first, and Ctrl+O expands that first card (not the newest), which
// shows its arguments and result under it.
func TestTUICardSelectionExpandsTheFirstCard(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := fs.newChatPane(t, 100, 40, "parallel-tools")
	p.waitFor(idleStatus)
	p.typeText("what time is it, what is here, and what does the README say")
	p.keys("Enter")
	p.waitFor("Answer ready.", "read_file")
	for _, want := range []string{"read_file", "list_dir", "now"} {
		p.keys("M-Up")
		p.waitUntil("the "+want+" card selected", func(screen string) bool {
			return strings.Contains(selectedLine(screen), want)
		})
	}
	p.keys("C-o")
	screen := p.waitFor("arguments:", "result:")
	if first, args := strings.Index(screen, "· now"), strings.Index(screen, "arguments:"); first < 0 || args < first || args > strings.Index(screen, "list_dir") {
		t.Fatalf("Ctrl+O did not expand the first card:\n%s", screen)
	}
	p.keys("M-Down", "M-Down", "M-Down")
	p.waitUntil("no card selected", func(screen string) bool { return selectedLine(screen) == "" })
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s after Ctrl+C", status)
	}
}

// runningForSeconds is the header of the lookup card once it has run a whole second or more.
var runningForSeconds = regexp.MustCompile(`◐ running · lookup · q=home · [0-9]+s`)

// selectedLine is the screen line holding the selection mark, or "".
func selectedLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "▶ ") {
			return l
		}
	}
	return ""
}

// A user tool that prints a line every half second: while it runs its card shows how long it
// has run and its latest lines, and once it ends, its result.
func TestTUIRunningCardShowsTimeAndOutput(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	toolsFile := filepath.Join(t.TempDir(), "tools.toml")
	if err := os.WriteFile(toolsFile, []byte(`
[[tool]]
name = "lookup"
description = "Looks a page up, slowly"
argv = ["sh", "-c", "for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.5; done"]
side_effects = false
`), 0o600); err != nil {
		t.Fatal(err)
	}
	p := fs.newChatPane(t, 100, 30, "seed", "--tools", toolsFile)
	p.waitFor(idleStatus)
	p.typeText("find the headings")
	p.keys("Enter")
	p.waitUntil("the running card's time and output", func(screen string) bool {
		return runningForSeconds.MatchString(screen) && strings.Contains(screen, "│ tick")
	})
	screen := p.waitFor("Answer ready.", "✓ done · lookup")
	if strings.Contains(screen, "│ tick") {
		t.Fatalf("the output lines stay after the tool ended:\n%s", screen)
	}
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s after Ctrl+C", status)
	}
}
