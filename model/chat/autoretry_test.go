package chat

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

func refused() wire.Result {
	return wire.Result{Outcome: wire.OutcomeError, Err: &wire.Error{Message: "Could not connect", Helps: wire.RetrySoon}}
}

func failedReplies(c *Chat) []*transcript.Entry {
	var out []*transcript.Entry
	for _, e := range c.Entries() {
		if e.Mark() == transcript.MarkFailed {
			out = append(out, e)
		}
	}
	return out
}

// A failure and its automatic retry make one failed reply, whose mark says it was retried;
// each Retry the user presses adds one more.
func TestAutoRetryShowsOneFailedReply(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("hi"))
	h.end(refused())
	if _, ok := h.c.AutoRetry(); !ok {
		t.Fatal("a refused connection is not retried on its own")
	}
	if got := h.c.Settled(); got != 1 {
		t.Fatalf("Settled = %d while the automatic retry is pending, want 1 (the prompt only)", got)
	}
	h.do(h.c.RetryNow())
	h.end(refused())
	failed := failedReplies(h.c)
	if len(failed) != 1 {
		t.Fatalf("%d failed replies after the automatic retry, want 1", len(failed))
	}
	if note := failed[0].Note(); !strings.HasSuffix(note, RetriedNote) {
		t.Fatalf("failed reply's note = %q, want it to say it was retried once", note)
	}
	if got := h.c.Settled(); got != len(h.c.Entries()) {
		t.Fatalf("Settled = %d after the retry failed too, want every entry (%d)", got, len(h.c.Entries()))
	}

	h.do(h.c.Retry())
	h.end(refused())
	h.do(h.c.RetryNow())
	h.end(refused())
	if n := len(failedReplies(h.c)); n != 2 {
		t.Fatalf("%d failed replies after one Retry, want 2", n)
	}
}

// A failed reply that shows something, or that a notice followed, stays when the retry goes.
func TestAutoRetryKeepsAReplyThatShowsSomething(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("hi"))
	h.c.Notice("before")
	h.feed(text("partial"))
	h.end(refused())
	h.do(h.c.RetryNow())
	h.end(refused())
	failed := failedReplies(h.c)
	if len(failed) != 2 || failed[0].Text() != "partial" {
		t.Fatalf("failed replies = %d, first %q; want the partial one kept and the retry's", len(failed), failed[0].Text())
	}
}
