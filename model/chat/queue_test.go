package chat

import (
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// sentText is the text of the user message the request in effects ends with; "" when effects
// open no request.
func sentText(effects []Effect) string {
	opens := effectsOf[OpenStream](effects)
	if len(opens) != 1 {
		return ""
	}
	msgs := opens[0].Request.Messages
	return msgs[len(msgs)-1].Text()
}

func TestQueueAddEditRemove(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("first"))
	for _, text := range []string{"second", "  ", "third"} {
		if effects := h.c.Enqueue(text); len(effects) != 0 {
			t.Fatalf("queueing while a reply streams sent something: %+v", effects)
		}
	}
	if got := h.c.Queued(); !reflect.DeepEqual(got, []string{"second", "third"}) {
		t.Fatalf("queued %q, want the two non-blank messages in order", got)
	}
	text, ok := h.c.Unqueue()
	if !ok || text != "third" || !reflect.DeepEqual(h.c.Queued(), []string{"second"}) {
		t.Fatalf("Unqueue = %q, %v; left %q: the newest comes back for editing", text, ok, h.c.Queued())
	}
	h.c.Enqueue(text + ", edited")
	if got := h.c.Queued(); !reflect.DeepEqual(got, []string{"second", "third, edited"}) {
		t.Fatalf("after editing: %q", got)
	}
	if n := h.c.DropQueue(); n != 2 || len(h.c.Queued()) != 0 {
		t.Fatalf("DropQueue = %d, left %q", n, h.c.Queued())
	}
	if _, ok := h.c.Unqueue(); ok {
		t.Fatal("Unqueue of an empty queue gave something back")
	}
}

func TestQueueSentWhenTheTurnIsOver(t *testing.T) {
	h := newHarness(t, Config{Model: "m", Tools: fakeTools{}})
	h.do(h.c.Submit("look it up"))
	h.c.Enqueue("then summarise")
	h.c.Enqueue("and thank you")
	h.feed(toolFrame("lookup", start("call_0", "lookup"), delta("call_0", `{}`), ready("call_0")))
	h.feed(doneUpdate())
	if effects := h.end(complete(nil)); sentText(effects) != "" {
		t.Fatalf("the queue went while a tool still ran: %+v", effects)
	}
	effects := h.toolDone("call_0", "found", false)
	if opens := effectsOf[OpenStream](effects); len(opens) != 1 || roles(opens[0].Request.Messages)[len(opens[0].Request.Messages)-1] != "tool" {
		t.Fatalf("the turn must continue with the tool's result, not the queue: %+v", effects)
	}
	if len(h.c.Queued()) != 2 {
		t.Fatalf("the queue went before the turn's last request: %q", h.c.Queued())
	}
	h.feed(text("Here it is."))
	effects = h.end(complete(nil))
	if got := sentText(effects); got != "then summarise" {
		t.Fatalf("after the turn the request sends %q, want the oldest queued message", got)
	}
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user", "assistant", "tool", "assistant", "user"}) {
		t.Fatalf("history %v", got)
	}
	if recs := finalRecords(effects); len(recs) == 0 || recs[len(recs)-1].Message == nil || recs[len(recs)-1].Message.Text() != "then summarise" {
		t.Fatalf("the queued message is not recorded: %+v", recs)
	}
	h.feed(text("Summary."))
	if got := sentText(h.end(complete(nil))); got != "and thank you" {
		t.Fatalf("the next turn sends %q", got)
	}
	h.feed(text("You're welcome."))
	h.end(complete(nil))
	h.expectPhase(phase.Complete, phase.StatusComplete)
	if len(h.c.Queued()) != 0 || h.c.QueueWaits() {
		t.Fatalf("queue left %q", h.c.Queued())
	}
}

func TestQueueWaitsAfterStop(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("first"))
	h.feed(text("partial"))
	h.c.Enqueue("second")
	if effects := h.c.Stop(); sentText(effects) != "" {
		t.Fatalf("stopping sent the queue: %+v", effects)
	}
	if !h.c.QueueWaits() || !reflect.DeepEqual(h.c.Queued(), []string{"second"}) {
		t.Fatalf("after Stop the queue must wait: waits %v, %q", h.c.QueueWaits(), h.c.Queued())
	}
	if got := sentText(h.c.SendQueued()); got != "second" {
		t.Fatalf("SendQueued sent %q", got)
	}
	if h.c.QueueWaits() || len(h.c.Queued()) != 0 {
		t.Fatal("the queue still waits after it was sent")
	}
}

// A message queued after a stop that found the queue empty (its files were still being read)
// waits as one queued before the stop would have; a new message lets the queue go again.
func TestQueueStaysHeldAfterAStopWithNothingQueued(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("first"))
	h.feed(text("partial"))
	h.c.Stop()
	if effects := h.c.Enqueue("late"); sentText(effects) != "" || !h.c.QueueWaits() {
		t.Fatalf("queued after the stop: sent %+v, waits %v", effects, h.c.QueueWaits())
	}
	if got := sentText(h.c.Submit("new")); got != "new" || h.c.QueueWaits() {
		t.Fatalf("a new message sent %q, the queue waits %v", got, h.c.QueueWaits())
	}
}

func TestQueueWaitsAfterErrorUntilRetry(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("first"))
	h.c.Enqueue("second")
	h.feed(errorUpdate("the server broke"))
	h.expectPhase(phase.Error, "")
	if !h.c.QueueWaits() {
		t.Fatal("after an error the queue must wait")
	}
	if effects := h.c.Enqueue("third"); len(effects) != 0 || len(h.c.Queued()) != 2 {
		t.Fatalf("queueing while the queue waits sent something or lost it: %+v %q", effects, h.c.Queued())
	}
	h.do(h.c.Retry())
	if h.c.QueueWaits() {
		t.Fatal("Retry must let the queue go after the retried turn")
	}
	h.feed(text("ok"))
	if got := sentText(h.end(complete(nil))); got != "second" {
		t.Fatalf("after the retried turn %q was sent, want the queue's oldest", got)
	}
}

func TestQueueSendQueuedFromTheErrorPhase(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("first"))
	h.feed(text("half"))
	h.c.Enqueue("second")
	h.feed(errorUpdate("the server broke"))
	effects := h.c.SendQueued()
	if got := sentText(effects); got != "second" {
		t.Fatalf("SendQueued sent %q", got)
	}
	// Like a new message, the queued one first commits the failed reply.
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user", "assistant", "user"}) {
		t.Fatalf("history %v", got)
	}
}

func TestQueueWhileIdleSendsAtOnce(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	if got := sentText(h.c.Enqueue("hello")); got != "hello" {
		t.Fatalf("Enqueue while idle sent %q", got)
	}
	if len(h.c.Queued()) != 0 {
		t.Fatalf("queued %q", h.c.Queued())
	}
	if effects := h.c.SendQueued(); len(effects) != 0 {
		t.Fatalf("SendQueued while streaming: %+v", effects)
	}
}

func TestQueueWaitsAfterWithdraw(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("first"))
	h.c.Enqueue("second")
	if _, _, ok := h.c.Withdraw(); !ok {
		t.Fatal("Withdraw before the first byte failed")
	}
	if !h.c.QueueWaits() {
		t.Fatal("after the message was taken back the queue must wait")
	}
}

func TestQueueCommand(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	if lines, _ := h.c.QueueCommand(""); len(lines) != 1 || !strings.Contains(lines[0], "No message is queued") {
		t.Fatalf("/queue, empty: %q", lines)
	}
	h.do(h.c.Submit("first"))
	h.c.Enqueue("second\nline")
	h.c.Enqueue("third")
	lines, _ := h.c.QueueCommand("")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "2 queued messages") || lines[1] != "1. second line" || lines[2] != "2. third" {
		t.Fatalf("/queue: %q", lines)
	}
	if lines, effects := h.c.QueueCommand("send"); len(effects) != 0 || !strings.Contains(lines[0], "when this reply ends") {
		t.Fatalf("/queue send while streaming: %q %+v", lines, effects)
	}
	h.c.Stop()
	if lines, _ := h.c.QueueCommand(""); !strings.Contains(lines[0], "waiting") {
		t.Fatalf("/queue after a stop: %q", lines)
	}
	if _, effects := h.c.QueueCommand("send"); sentText(effects) != "second\nline" {
		t.Fatalf("/queue send: %+v", effects)
	}
	if lines, _ := h.c.QueueCommand("clear"); lines[0] != "Dropped 1 queued message." || len(h.c.Queued()) != 0 {
		t.Fatalf("/queue clear: %q, left %q", lines, h.c.Queued())
	}
	if lines, _ := h.c.QueueCommand("bogus"); !strings.HasPrefix(lines[0], "Usage: /queue") {
		t.Fatalf("/queue bogus: %q", lines)
	}
}
