package tmux

import (
	"net"
	"strings"
	"testing"
)

// refusedURL is the base URL of a loopback port nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

// A request nothing answers is retried once on its own: the failure and its retry show as one
// failed reply that says so, and each Retry pressed adds one more. The same holds for the
// scrollback of the inline mode.
func TestTUIRefusedShowsOneFailurePerAttempt(t *testing.T) { refusedOncePerAttempt(t, false) }

func TestTUIInlineRefusedShowsOneFailurePerAttempt(t *testing.T) { refusedOncePerAttempt(t, true) }

func refusedOncePerAttempt(t *testing.T, inline bool) {
	requireTmux(t)
	t.Parallel()
	args := []string{phasechatBinary(t), "--base-url", refusedURL(t), "--model", "m"}
	read := func(p *pane) string { return p.screen() }
	if inline {
		args = append(args, "--inline")
		read = func(p *pane) string { return p.history() }
	}
	p := newProgramPane(t, 110, 30, t.TempDir(), hermeticEnv(t), args)
	p.waitFor(idleStatus)
	p.typeLine("hello")
	failures := func(want int) string {
		t.Helper()
		var s string
		p.waitUntil("the failure, retried, and Retry", func(string) bool {
			s = read(p)
			return strings.Count(s, "(retried once)") == want && strings.Contains(s, "[ Retry · Enter ]")
		})
		return s
	}
	s := failures(1)
	if n := strings.Count(s, "✗ Could not connect"); n != 1 {
		t.Fatalf("%d failed replies for one message, want 1:\n%s", n, s)
	}
	p.keys("Enter")
	s = failures(2)
	if n := strings.Count(s, "✗ Could not connect"); n != 2 {
		t.Fatalf("%d failed replies after one Retry, want 2:\n%s", n, s)
	}
}

// A rejected key and a conversation too long for the model fail the same way on a retry as it
// stands: the composer has the focus and the status says so, the failure says what to fix, and
// Shift+Tab still reaches Retry.
func TestTUIRetryThatCannotHelpFocusesTheComposer(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	for _, tc := range []struct{ scenario, fix string }{
		{"http-401", "No API key is set: export OPENAI_API_KEY"},
		{"http-400", "/compact summarises the older turns, /new starts a new conversation"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			fs := startFixtures(t)
			p := fs.newChatPane(t, 120, 30, tc.scenario)
			p.waitFor(idleStatus)
			p.typeLine("hello")
			screen := p.waitFor("Enter sends a new message, Shift+Tab goes to Retry.", "shift+tab retry")
			if !strings.Contains(strings.Join(strings.Fields(screen), " "), tc.fix) {
				t.Fatalf("the failure does not say %q:\n%s", tc.fix, screen)
			}
			p.keys("BTab")
			p.waitFor("Retry is available: Enter retries, Tab goes to the composer.", "enter retry")
			p.keys("Enter")
			waitCount(t, "requests after Retry", &fs.started, 2)
		})
	}
}
