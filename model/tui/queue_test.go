package tui

import (
	"encoding/json"
	"reflect"
	"slices"
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

// lastMessageSent is the last message of the last request, as its JSON was sent.
func (h *harness) lastMessageSent() string {
	h.t.Helper()
	reqs := h.server.requests()
	var body struct{ Messages []json.RawMessage }
	if err := json.Unmarshal(reqs[len(reqs)-1].body, &body); err != nil || len(body.Messages) == 0 {
		h.t.Fatalf("the request: %v", err)
	}
	return string(body.Messages[len(body.Messages)-1])
}

// A queued message's @mention becomes the attachment it becomes when the message is sent at
// once: the same bytes in the request, the same chip under its prompt. Texts queued after it
// wait for its files, so the queue keeps the order they were typed in.
func TestAQueuedMentionIsSentAsTheFileItNames(t *testing.T) {
	direct := filesHarness(t)
	direct.submit("review @notes.txt")
	direct.send(takeNext[filesRead](direct))
	direct.feedAll()
	want := direct.lastMessageSent()

	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("review @notes.txt")
	h.submit("then this")
	if got := h.m.Chat().Queued(); len(got) != 0 {
		t.Fatalf("queued before the mentioned file was read: %q", got)
	}
	h.send(takeNext[filesRead](h))
	if got := h.m.Chat().Queued(); !reflect.DeepEqual(got, []string{"review @notes.txt", "then this"}) {
		t.Fatalf("queued %q", got)
	}
	for range 2 {
		h.feedAll()
		h.send(keyEnter) // nothing: each queued message goes by itself as the turn before ends
	}
	reqs := h.server.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	var body struct{ Messages []json.RawMessage }
	if err := json.Unmarshal(reqs[1].body, &body); err != nil {
		t.Fatal(err)
	}
	if got := string(body.Messages[len(body.Messages)-1]); got != want {
		t.Errorf("the queued message was sent as\n%s\nnot as when sent at once\n%s", got, want)
	}
	if screen := h.m.View().Content; !strings.Contains(screen, "  [file notes.txt · 1 line]") {
		t.Errorf("no chip under the queued prompt:\n%s", screen)
	}
}

// Ctrl+C while a queued message still waits for the files it mentions drops it, as it drops
// a queued one, and does not quit.
func TestCtrlCDropsAMessageWaitingForItsFiles(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("review @notes.txt")
	read := takeNext[filesRead](h)
	if out := h.send(keyCtrlC); slices.ContainsFunc(out, isQuit) {
		t.Fatal("Ctrl+C quit with a message waiting to be queued")
	}
	if status := h.status(); !strings.Contains(status, "The queued message dropped.") {
		t.Fatalf("status %q", status)
	}
	h.send(read)
	if got := h.m.Chat().Queued(); len(got) != 0 {
		t.Fatalf("queued after it was dropped: %q", got)
	}
}
