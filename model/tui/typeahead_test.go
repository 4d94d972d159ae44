package tui

import (
	"strings"
	"testing"
)

// A command line and its Enter typed while the last words of a reply arrive (a fast typist, a
// paste, a script): the command runs once the reply has ended, as it would have a moment later.
func TestACommandEnteredWhileAReplyEndsRunsOnceItHasEnded(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.typeText("/attach notes.txt")
	h.send(keyEnter)
	h.feedAll()
	if h.m.Chat().State.Phase.Streaming() {
		t.Fatal("the reply does not end")
	}
	if got := h.composer(); got != "" {
		t.Fatalf("the command stays in the composer: %q (status %q)", got, h.status())
	}
	if len(h.m.chat.Attached()) != 1 || !strings.Contains(h.m.View().Content, "with [file notes.txt · 1 line]") {
		t.Fatalf("the command did not run:\n%s", h.m.View().Content)
	}
}

// The command waits in the composer, saying so, and runs only as Entered: edited after its
// Enter, it waits for its own.
func TestACommandEditedAfterItsEnterWaitsForAnother(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.typeText("/attach notes.txt")
	h.send(keyEnter)
	if got, status := h.composer(), h.status(); got != "/attach notes.txt" || !strings.Contains(status, "/attach runs when the reply ends") {
		t.Fatalf("Enter on a command while the reply streams: composer %q, status %q", got, status)
	}
	h.typeText(" b.md")
	h.feedAll()
	if got := h.composer(); got != "/attach notes.txt b.md" || len(h.pending) != 0 {
		t.Fatalf("the edited command ran, or left the composer: %q, pending %#v", got, h.pending)
	}
	h.send(keyEnter)
	h.send(takeNext[filesRead](h))
	if len(h.m.chat.Attached()) != 2 {
		t.Fatalf("Enter after the reply: attached %v", h.m.chat.Attached())
	}
}
