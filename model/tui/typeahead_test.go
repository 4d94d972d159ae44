package tui

import (
	"reflect"
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
	if !h.offers("enter", "run after reply") {
		t.Fatalf("the help line does not offer Enter on the command: %+v", h.m.help(true))
	}
	h.send(keyEnter)
	if h.offers("enter", "run after reply") {
		t.Fatal("the help line offers Enter again on the command Entered")
	}
	if got, status := h.composer(), h.status(); got != "/attach notes.txt" || !strings.Contains(status, "/attach runs after the reply (") {
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

// A message Entered before the files an /attach names are read (typed with the command, or
// pasted) waits for them and carries them, as it would a moment later.
func TestAMessageEnteredBeforeAnAttachIsReadCarriesTheFiles(t *testing.T) {
	h := filesHarness(t)
	h.submit("/attach notes.txt")
	h.submit("what is it?")
	if n := len(h.server.requests()); n != 0 {
		t.Fatalf("%d requests before the file was read", n)
	}
	h.feedAll()
	if reqs := h.server.requests(); len(reqs) != 1 || !h.lastRequestHas(`\u003cfile path=\"notes.txt\"`) || !strings.HasPrefix(h.lastSent(), "what is it?") {
		t.Fatalf("%d requests; the last: %s", len(reqs), reqs[len(reqs)-1].body)
	}
}

// Messages Entered one after the other, the first naming a file: each goes in the order typed,
// the second as a queued one once the first's reply has ended; neither is lost.
func TestMessagesEnteredWhileAMentionIsReadGoInOrder(t *testing.T) {
	h := filesHarness(t)
	h.submit("review @notes.txt")
	h.submit("then this")
	if screen := h.m.View().Content; !strings.Contains(screen, "▶ 2 queued, newest: then this") {
		t.Fatalf("the messages waiting for the file are not shown as queued:\n%s", screen)
	}
	h.send(takeNext[filesRead](h))
	if got := h.lastSent(); !strings.HasPrefix(got, "review @notes.txt") || !h.lastRequestHas(`\u003cfile path=\"notes.txt\"`) {
		t.Fatalf("the first request sent %q", got)
	}
	if got := h.m.Chat().Queued(); !reflect.DeepEqual(got, []string{"then this"}) {
		t.Fatalf("queued %q", got)
	}
	h.feedAll()
	if reqs := h.server.requests(); len(reqs) != 2 || h.lastSent() != "then this" {
		t.Fatalf("%d requests, the last sent %q", len(reqs), h.lastSent())
	}
}

// While a reply streams, a message waiting for the files it mentions is a queued message: it
// is drawn as one, in the order typed, and Up takes the newest back into the composer (its
// read, when it comes, is dropped); Enter queues it again.
func TestAMessageWaitingForItsFilesIsAQueuedMessage(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("first")
	h.submit("review @notes.txt")
	if screen := h.m.View().Content; !strings.Contains(screen, "▶ 2 queued, newest: review @notes.txt") {
		t.Fatalf("the message waiting for its file is not drawn as queued:\n%s", screen)
	}
	h.send(keyUp)
	if got := h.composer(); got != "review @notes.txt" {
		t.Fatalf("Up put %q in the composer", got)
	}
	if screen := h.m.View().Content; !strings.Contains(screen, "▶ queued: first") {
		t.Fatalf("the message taken back is still drawn queued:\n%s", screen)
	}
	h.send(takeNext[filesRead](h)) // the read of the message taken back
	if got := h.m.Chat().Queued(); !reflect.DeepEqual(got, []string{"first"}) {
		t.Fatalf("the message taken back was queued by its read: %q", got)
	}
	h.typeText(" and @b.md")
	h.send(keyEnter)
	h.submit("last")
	if screen := h.m.View().Content; !strings.Contains(screen, "▶ 3 queued, newest: last") {
		t.Fatalf("queued again:\n%s", screen)
	}
	h.send(takeNext[filesRead](h))
	if got := h.m.Chat().Queued(); !reflect.DeepEqual(got, []string{"first", "review @notes.txt and @b.md", "last"}) {
		t.Fatalf("queued %q", got)
	}
}

// Up takes a waiting message back even while the one before it is still waiting for its
// files; the one before is then queued when they are read.
func TestUpTakesBackAMessageQueuedBehindOneWaitingForFiles(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("review @notes.txt")
	h.submit("then this")
	h.send(keyUp)
	if got := h.composer(); got != "then this" {
		t.Fatalf("Up put %q in the composer", got)
	}
	h.send(takeNext[filesRead](h))
	if got := h.m.Chat().Queued(); !reflect.DeepEqual(got, []string{"review @notes.txt"}) {
		t.Fatalf("queued %q", got)
	}
}

// Tab completes a command or an @mention typed while a reply streams, as it does after it: a
// command typed ahead with Tab runs, complete, once the reply has ended.
func TestTabCompletesWhileAReplyStreams(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.typeText("read @not")
	h.send(takeNext[filesListed](h))
	h.send(keyTab)
	if got := h.composer(); got != "read @notes.txt " {
		t.Fatalf("Tab on a mention while the reply streams: %q", got)
	}
	h.send(keyCtrlC)
	h.typeText("/att")
	h.send(keyTab)
	h.typeText("notes.txt")
	h.send(keyEnter)
	h.feedAll()
	if len(h.m.chat.Attached()) != 1 || h.composer() != "" {
		t.Fatalf("the completed command did not run: composer %q, status %q", h.composer(), h.status())
	}
}

// Esc stops the reply while a queued message still waits for its files: once they are read
// it waits in the queue, as the queued messages do after a stop, and is not sent by itself.
func TestAMessageWaitingForItsFilesWaitsAfterAStop(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("review @notes.txt")
	h.send(keyEsc)
	h.send(takeNext[filesRead](h))
	h.feedAll()
	if n := len(h.server.requests()); n != 1 || !h.m.chat.QueueWaits() {
		t.Fatalf("after the stop: %d requests, queue waits %v (queued %q)", n, h.m.chat.QueueWaits(), h.m.chat.Queued())
	}
}

// offers reports whether the help line offers keys to do does.
func (h *harness) offers(keys, does string) bool {
	for _, k := range h.m.help(true) {
		if k.Keys == keys && k.Does == does {
			return true
		}
	}
	return false
}
