package tmux

import (
	"strings"
	"testing"
)

// inOrder reports whether each of texts is on screen after the one before it.
func inOrder(screen string, texts ...string) bool {
	for _, next := range texts {
		at := strings.Index(screen, next)
		if at < 0 {
			return false
		}
		screen = screen[at+len(next):]
	}
	return true
}

// A reply whose text and tool calls alternate (Anthropic Messages blocks) comes back with
// --continue in the order the live screen showed it: text, card, text, card, then the answer.
func TestTUIResumedReplyKeepsItsOrder(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	env := hermeticEnv(t)
	order := []string{"First the listing.", "list_dir", "Then a search.", "search_files", "Tool results received"}
	p := newProgramPane(t, 100, 40, t.TempDir(), env, fs.chatArgs(t, "anthropic-interleaved", "--wire", "anthropic"))
	p.waitFor(idleStatus)
	p.typeLine("look around")
	p.waitFor("Answer ready.")
	p.waitUntil("the live reply in stream order", func(s string) bool { return inOrder(s, order...) })
	p.keys("C-c")
	p.exit("0")

	q := newProgramPane(t, 100, 40, t.TempDir(), env, fs.chatArgs(t, "anthropic-interleaved", "--wire", "anthropic", "--continue"))
	q.waitFor("Resumed session", idleStatus)
	q.waitUntil("the resumed reply in stream order", func(s string) bool { return inOrder(s, order...) })
	q.keys("C-c")
	q.exit("0")
}
