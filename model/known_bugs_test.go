package model

// Tests of defects found while testing the model that belong to other packages. Each is
// skipped with the reason until its owner fixes it; remove the Skip to check the fix.

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view"
)

// stream: the stall watchdog is touched only when the body is read, so a consumer that is
// slow to call Next (a busy UI, a suspended laptop) while the server's data waits in the
// buffers is reported as "No data from the server for …" and the stream ends in error. Here
// the long scenario has been sent whole; the consumer pauses 3x the stall timeout once.
func TestKnownBugStallCountsASlowConsumer(t *testing.T) {
	t.Skip("stream bug: the stall watchdog counts the consumer's pauses as server silence (stream/watchdog.go, live.go)")
	h, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := stream.NewClient(srv.URL+"/v1", "")
	c.StallTimeout = 100 * time.Millisecond
	s := c.Stream(context.Background(), stream.Request{Model: "long", Messages: []stream.Message{{Role: "user", Content: "hi"}}})
	defer s.Close()
	s.Next()
	time.Sleep(300 * time.Millisecond)
	for _, ok := s.Next(); ok; _, ok = s.Next() {
	}
	if r := s.Result(); r.Outcome != stream.OutcomeComplete {
		t.Fatalf("outcome %s (%v); the server never went silent", r.Outcome, r.Err)
	}
}

// view: a paragraph whose lines end in single newlines is drawn line by line while it streams
// and reflowed into one paragraph once the reply is finished, so the reply jumps (and a
// reader scrolled up loses their place) the moment the stream ends.
func TestKnownBugStreamedParagraphReflowsWhenFinished(t *testing.T) {
	t.Skip("view bug: a streaming reply's open block keeps single newlines, the finished one reflows them (view/markdown.go)")
	text := "Line 1: the quick brown fox.\nLine 2: the lazy dog.\nLine 3: the end.\n"
	draw := func(streaming bool) string {
		e := &view.Entry{Role: view.RoleAssistant, Text: text, Streaming: streaming}
		f := view.Frame{Width: 80, Height: 12, Entries: []*view.Entry{e}, State: phase.State{Phase: phase.Complete}}
		rows := strings.Split(view.NewRenderer(view.PlainStyles()).Render(f).Content, "\n")
		return strings.Join(rows[:4], "\n")
	}
	if streamed, finished := draw(true), draw(false); streamed != finished {
		t.Fatalf("streaming:\n%s\nfinished:\n%s", streamed, finished)
	}
}

// model/chat: a card's summary is Describe's line with the raw tool name trimmed off its
// front, but Describe has sanitised the name, so a name with control characters is not
// trimmed and shows twice: "list_dir␛]0;pwned␇ · list_dir␛]0;pwned␇ path=…".
func TestKnownBugHostileToolNameShownTwiceOnItsCard(t *testing.T) {
	t.Skip("model/chat bug: applyCall trims the raw name from the sanitised Describe line (model/chat/finish.go)")
	h := newHarness(t, "hostile", 120, 30)
	h.submit("hi")
	h.feedAll()
	for _, e := range h.m.Chat().Entries {
		for _, c := range e.Cards {
			if strings.HasPrefix(c.Summary, "list_dir") {
				t.Fatalf("the card's summary repeats the tool's name: %q", c.Summary)
			}
		}
	}
}

// phase: Status trims only a final "." from the reason before adding ". Retry is available",
// so a reason ending in "!" or "?" reads "Sorry about that!. Retry is available: …".
func TestKnownBugStatusDoublesPunctuation(t *testing.T) {
	t.Skip(`phase bug: Status appends ". " after a reason ending in "!" or "?" (phase/status.go)`)
	got := phase.Status(phase.State{Phase: phase.Error, Reason: "Sorry about that!"})
	if strings.Contains(got, "!.") {
		t.Fatalf("status %q", got)
	}
}

// view: the status block is capped at 3 rows and cut at its end, so at 80 columns a long
// error loses the part a user acts on: "… Retry is available: Enter retries, Tab goes to the…".
func TestKnownBugLongErrorCutsTheRetryHint(t *testing.T) {
	t.Skip("view bug: a long status is cut at its end, dropping the Retry hint (view/status.go renderStatus)")
	h := newHarness(t, "flaky", 80, 24)
	h.submit("hello")
	h.feedAll()
	if content := h.m.View().Content; !strings.Contains(strings.Join(strings.Fields(content), " "), retryHint) {
		t.Fatalf("the Retry hint is cut:\n%s", content)
	}
}

// view: a call waiting for the user's approval is drawn "◐ running" (its state-machine status),
// though it has not run and may never run.
func TestKnownBugAskingCardSaysRunning(t *testing.T) {
	t.Skip("view bug: a card with Asking set shows the running glyph and word (view/card.go)")
	h := newHarness(t, "note", 80, 24)
	h.submit("note: buy milk")
	feedUntilQuiet(h)
	if content := h.m.View().Content; strings.Contains(content, "running · write_note") {
		t.Fatalf("the card says the tool is running while it waits for approval:\n%s", content)
	}
}
