package tui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/view"
)

// lastSent is the text of the last user message of the last request the server got.
func (h *harness) lastSent() string {
	reqs := h.server.requests()
	msgs := reqs[len(reqs)-1].Messages
	return msgs[len(msgs)-1].Text()
}

// Enter while a reply streams queues the draft (shown above the composer, with the count once
// more than one waits); Up in the empty composer takes the newest back to edit, Ctrl+C drops
// what the composer holds, then the queue.
func TestQueueWhileStreaming(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello")
	h.feedStream()
	h.typeText("next")
	h.send(keyEnter)
	if got := h.m.Chat().Queued(); !reflect.DeepEqual(got, []string{"next"}) || h.composer() != "" {
		t.Fatalf("queued %q, composer %q", got, h.composer())
	}
	if screen := h.m.View().Content; !strings.Contains(screen, "▶ queued: next") {
		t.Fatalf("the queue is not shown:\n%s", screen)
	}
	h.typeText("and then")
	h.send(keyEnter)
	if screen := h.m.View().Content; !strings.Contains(screen, "▶ 2 queued, newest: and then") {
		t.Fatalf("the queue's count is not shown:\n%s", screen)
	}
	h.send(keyUp)
	if h.composer() != "and then" || !reflect.DeepEqual(h.m.Chat().Queued(), []string{"next"}) {
		t.Fatalf("Up: composer %q, queued %q", h.composer(), h.m.Chat().Queued())
	}
	h.send(keyCtrlC) // drops the message being edited
	h.send(keyUp)
	h.typeText(" please")
	h.send(keyEnter)
	if got := h.m.Chat().Queued(); !reflect.DeepEqual(got, []string{"next please"}) {
		t.Fatalf("edited and queued again: %q", got)
	}
	if n := len(h.server.requests()); n != 1 {
		t.Fatalf("%d requests while the reply streams", n)
	}
	h.feedAll()
	if got := h.lastSent(); len(h.server.requests()) != 2 || got != "next please" {
		t.Fatalf("after the reply the request sends %q (%d requests)", got, len(h.server.requests()))
	}
	h.expect("the queued message answered", answered())
}

func TestCtrlCDropsTheQueue(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello")
	h.feedStream()
	h.typeText("one")
	h.send(keyEnter)
	h.typeText("two")
	h.send(keyEnter)
	h.send(keyCtrlC)
	if len(h.m.Chat().Queued()) != 0 || !strings.Contains(h.status(), "2 queued messages dropped") {
		t.Fatalf("Ctrl+C on the empty composer: queued %q, status %q", h.m.Chat().Queued(), h.status())
	}
	if !h.m.Chat().State.Phase.Streaming() {
		t.Fatal("dropping the queue stopped the reply")
	}
}

// After Esc the queue waits; the status line says so and Enter in the empty composer sends it.
func TestQueueWaitsAfterStop(t *testing.T) {
	h := newHarness(t, "text", 100, 24)
	h.submit("hello")
	h.feedStream()
	h.feedStream()
	h.typeText("next")
	h.send(keyEnter)
	h.send(keyEsc)
	h.feedAll()
	if n := len(h.server.requests()); n != 1 || !h.m.Chat().QueueWaits() {
		t.Fatalf("after Esc: %d requests, waits %v", n, h.m.Chat().QueueWaits())
	}
	screen := h.m.View().Content
	if !strings.Contains(screen, "1 queued: enter sends it") || !strings.Contains(screen, "▶ queued (waiting: enter sends): next") {
		t.Fatalf("the screen does not say the queue waits:\n%s", screen)
	}
	if help := h.m.help(false); !strings.Contains(keysText(help), "enter send queued") {
		t.Fatalf("the help line lacks the key that sends the queue: %s", keysText(help))
	}
	h.send(keyEnter)
	if got := h.lastSent(); len(h.server.requests()) != 2 || got != "next" {
		t.Fatalf("Enter sent %q", got)
	}
}

// keysText is the keys as the help line names them, "key does" each.
func keysText(keys []view.Key) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k.Keys + " " + k.Does + "; ")
	}
	return b.String()
}

// /queue lists the queue in the transcript; /queue clear drops it.
func TestQueueCommandInTheComposer(t *testing.T) {
	h := newHarness(t, "text", 100, 24)
	h.submit("hello")
	h.feedStream()
	h.feedStream() // the reply has begun: Esc stops it
	h.typeText("later")
	h.send(keyEnter)
	h.send(keyEsc)
	h.feedAll()
	h.submitCommand("/queue")
	if screen := h.m.View().Content; !strings.Contains(screen, "1. later") {
		t.Fatalf("/queue does not list the queue:\n%s", screen)
	}
	h.submitCommand("/queue clear")
	if len(h.m.Chat().Queued()) != 0 || h.status() != "Dropped 1 queued message." {
		t.Fatalf("/queue clear: queued %q, status %q", h.m.Chat().Queued(), h.status())
	}
}

// submitCommand types a command line into the composer and presses Enter.
func (h *harness) submitCommand(line string) {
	h.typeText(line)
	h.send(keyEnter)
}
