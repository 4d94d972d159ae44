package tui

// Regression tests of defects found while testing the model in other packages, seen from the
// model: each failed before its fix.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
)

// stream: the stall watchdog was touched only when the body was read, so a consumer that was
// slow to call Next (a busy UI, a suspended laptop) while the server's data waited in the
// buffers was reported as "No data from the server for …" and the stream ended in error. Here
// the long scenario is sent as fast as the client reads; the consumer pauses 3x the stall
// timeout once.
func TestStallIgnoresASlowConsumer(t *testing.T) {
	h, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var writes gapWatch
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&gapWriter{ResponseWriter: w, watch: &writes}, r)
	}))
	defer srv.Close()
	c := stream.NewClient(srv.URL+"/v1", "")
	c.StallTimeout = time.Second
	// A run in which a loaded machine held the server back, after the pause, for half the
	// stall timeout between two writes proves nothing either way, so it is run again; a stall
	// in any other run is the failure.
	var r wire.Result
	testwait.Until(t, func() bool {
		writes.reset()
		s := c.Stream(context.Background(), wire.Request{Model: "long", Messages: []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}}})
		defer s.Close()
		s.Next()
		time.Sleep(3 * c.StallTimeout)
		writes.resume()
		for _, ok := s.Next(); ok; _, ok = s.Next() {
		}
		r = s.Result()
		return r.Outcome == wire.OutcomeComplete || writes.longest() < c.StallTimeout/2
	}, "every run had the server silent for half the stall timeout after the pause; the last ended %+v", &r)
	if r.Outcome != wire.OutcomeComplete {
		t.Fatalf("outcome %s (%v); the server never went silent", r.Outcome, r.Err)
	}
}

// gapWatch measures the longest time between two writes of a server that both came after the
// consumer resumed reading.
type gapWatch struct {
	mu      sync.Mutex
	resumed bool
	last    time.Time // of the last write since resume; zero before the first
	gap     time.Duration
}

func (g *gapWatch) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.resumed, g.last, g.gap = false, time.Time{}, 0
}

func (g *gapWatch) resume() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.resumed = true
}

func (g *gapWatch) wrote() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.resumed {
		return
	}
	now := time.Now()
	if !g.last.IsZero() {
		g.gap = max(g.gap, now.Sub(g.last))
	}
	g.last = now
}

func (g *gapWatch) longest() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gap
}

// gapWriter tells watch of every write that ends.
type gapWriter struct {
	http.ResponseWriter
	watch *gapWatch
}

func (w *gapWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.watch.wrote()
	return n, err
}

func (w *gapWriter) Flush()                      { http.NewResponseController(w.ResponseWriter).Flush() }
func (w *gapWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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
