package tmux

import (
	"strings"
	"testing"
)

const idleStatus = "Type a message and press Enter to send."

// The seed scenario in a real terminal, at its own pace (a frame every 400ms): the status names
// the tool while the call streams, the answer ends ready, the text is in the transcript and
// the argument JSON is on no screen at any moment.
func TestTUIToolCallStatusWithoutArguments(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := fs.newChatPane(t, 100, 30, "seed")
	p.waitFor(idleStatus)
	p.typeText("find the headings")
	p.keys("Enter")
	p.waitFor("Working on lookup. Esc stops generating.", "[ Stop · Esc ]")
	screen := p.waitFor("Answer ready.")
	if !strings.Contains(screen, "Found two headings.") {
		t.Fatalf("the reply's text is not in the transcript:\n%s", screen)
	}
	p.neverShowed(`{"q"`)
	p.neverShowed(`"home"`)
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s after Ctrl+C", status)
	}
}

// Esc stops a slow stream: the status says so, the HTTP request ends on the server, and the
// composer takes a new message that starts a new request.
func TestTUISlowDripEsc(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := fs.newChatPane(t, 100, 30, "slow-drip")
	p.waitFor(idleStatus)
	p.typeText("drip please")
	p.keys("Enter")
	p.waitFor("drip2", "[ Stop · Esc ]")
	p.keys("Escape")
	p.waitFor("Stopped. The partial reply is kept.", "■ Stopped — the partial reply is kept.")
	waitCount(t, "requests ended on the server after Esc", &fs.ended, 1)

	p.typeText("again")
	p.keys("Enter")
	p.waitFor("› again", "Writing a reply. Esc stops generating.")
	waitCount(t, "requests started", &fs.started, 2)
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s after Ctrl+C while streaming", status)
	}
	waitCount(t, "requests ended on the server after Ctrl+C", &fs.ended, 2)
}

// A failed request shows the error with Retry focused; Enter retries, and the retry succeeds.
func TestTUIFlakyRetry(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := fs.newChatPane(t, 120, 30, "flaky")
	p.waitFor(idleStatus)
	p.typeText("hello")
	p.keys("Enter")
	p.waitFor("HTTP 500", "Retry is available", "[ Retry · Enter ]")
	p.keys("Enter")
	screen := p.waitFor("Answer ready.")
	if !strings.Contains(screen, "Hello! This is a plain streamed reply") {
		t.Fatalf("the retried reply is missing:\n%s", screen)
	}
	if fs.started.Load() != 2 {
		t.Fatalf("%d requests, want 2", fs.started.Load())
	}
}

// A server that goes silent ends in the error phase once the stall timeout passes.
func TestTUIStall(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := fs.newChatPane(t, 100, 30, "stall", "--stall-timeout", "2s")
	p.waitFor(idleStatus)
	p.typeText("hello")
	p.keys("Enter")
	p.waitFor("Writing a reply.")
	p.waitFor("No data from the server for 2s", "[ Retry · Enter ]")
	waitCount(t, "requests ended on the server after the stall", &fs.ended, 1)
}
