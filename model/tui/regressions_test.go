package tui

// Regression tests of defects found while testing the model in other packages, seen from the
// model: each failed before its fix.

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream"
)

// stream: the stall watchdog was touched only when the body was read, so a consumer that was
// slow to call Next (a busy UI, a suspended laptop) while the server's data waited in the
// buffers was reported as "No data from the server for …" and the stream ended in error. Here
// the long scenario has been sent whole; the consumer pauses 3x the stall timeout once.
func TestStallIgnoresASlowConsumer(t *testing.T) {
	h, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := stream.NewClient(srv.URL+"/v1", "")
	// A window a loaded machine's server does not exceed between writes, and a pause 3x as long.
	c.StallTimeout = time.Second
	s := c.Stream(context.Background(), stream.Request{Model: "long", Messages: []stream.Message{{Role: "user", Content: "hi"}}})
	defer s.Close()
	s.Next()
	time.Sleep(3 * time.Second)
	for _, ok := s.Next(); ok; _, ok = s.Next() {
	}
	if r := s.Result(); r.Outcome != stream.OutcomeComplete {
		t.Fatalf("outcome %s (%v); the server never went silent", r.Outcome, r.Err)
	}
}

// model/chat: a card's summary was Describe's line with the raw tool name trimmed off its
// front, but Describe had sanitised the name, so a name with control characters was not
// trimmed and showed twice: "list_dir␛]0;pwned␇ · list_dir␛]0;pwned␇ path=…".
func TestHostileToolNameShownOnceOnItsCard(t *testing.T) {
	h := newHarness(t, "hostile", 120, 30)
	h.submit("hi")
	h.feedAll()
	for _, e := range h.m.Chat().Entries() {
		for _, c := range e.Cards() {
			if strings.HasPrefix(c.Summary(), "list_dir") {
				t.Fatalf("the card's summary repeats the tool's name: %q", c.Summary())
			}
		}
	}
}

// phase: Status trimmed only a final "." from the reason before adding ". Retry is
// available", so a reason ending in "!" or "?" read "Sorry about that!. Retry is available: …".
func TestStatusKeepsTheReasonsPunctuation(t *testing.T) {
	got := phase.Status(phase.State{Phase: phase.Error, Reason: "Sorry about that!"})
	if strings.Contains(got, "!.") {
		t.Fatalf("status %q", got)
	}
}

// view: the status block is capped at 3 rows; it was cut at its end, so at 80 columns a long
// error lost the part a user acts on: "… Retry is available: Enter retries, Tab goes to the…".
func TestLongErrorKeepsTheRetryHint(t *testing.T) {
	h := newHarness(t, "flaky", 80, 24)
	h.submit("hello")
	h.feedAll()
	if content := h.m.View().Content; !strings.Contains(strings.Join(strings.Fields(content), " "), retryHint) {
		t.Fatalf("the Retry hint is cut:\n%s", content)
	}
}

// view: a call waiting for the user's approval was drawn "◐ running" (its state-machine
// status), though it has not run and may never run.
func TestAskingCardSaysWaiting(t *testing.T) {
	h := newHarness(t, "note", 80, 24)
	h.submit("note: buy milk")
	feedUntilQuiet(h)
	if content := h.m.View().Content; strings.Contains(content, "running · write_note") {
		t.Fatalf("the card says the tool is running while it waits for approval:\n%s", content)
	}
}

// view/safe: every ZWJ, variation selector and tag character was shown as <U+XXXX>, so a
// family emoji read "👨<U+200D>👩<U+200D>…". Sequences cut across deltas now show whole; a
// joiner inside a word and smuggled tag characters are still shown.
func TestEmojiSequencesShowWhole(t *testing.T) {
	h := newHarness(t, "emoji", 160, 30)
	h.submit("hi")
	h.feedAll()
	content := h.m.View().Content
	tag := func(s string) string {
		var b strings.Builder
		for _, c := range s {
			b.WriteRune(0xe0000 + c)
		}
		return b.String()
	}
	for _, want := range []string{
		"👨\u200d👩\u200d👧\u200d👦", "👩🏽\u200d💻", "🏳\ufe0f\u200d🌈", "🏴" + tag("gbsct") + "\U000E007F",
		"1\ufe0f\u20e3", "pay<U+200D>pal", "ok<U+E0072><U+E0075><U+E006E>",
	} {
		if !strings.Contains(content, want) {
			t.Errorf("the screen lacks %q:\n%s", want, content)
		}
	}
}
