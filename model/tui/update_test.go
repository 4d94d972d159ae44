package tui

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// The seed scenario (a): a tool call first, then text, then [DONE]; the tool runs the moment its call is
// over, the turn goes on with its result, and only then is the answer ready. Every frame is
// one step, checked at 80 and 120 columns.
func TestSeedToolThenTextThenDone(t *testing.T) {
	for _, width := range []int{80, 120} {
		h := newHarness(t, "seed", width, 24)
		h.expect("start", idle())
		h.submit("find the headings")
		h.expect("enter", writing())

		h.feedStream() // tool_calls: name lookup
		h.expect("tool frame", working("lookup"))
		h.feedStream() // tool_calls: arguments {"q":"home"}
		h.expect("argument frame", working("lookup"))
		h.feedStream() // content: Found two headings. (the call is over: lookup runs now)
		h.expect("text frame", writing())
		if !strings.Contains(h.m.View().Content, "Found two headings.") {
			t.Fatalf("the text is not on the screen:\n%s", h.m.View().Content)
		}
		h.feedStream() // [DONE]: the stream is complete, not the turn
		h.expect("[DONE]", writing())
		h.feedStream() // the end-of-stream update
		h.expect("end-of-stream update", writing())
		if h.feedStream().More {
			t.Fatal("the source did not end after its end-of-stream update")
		}
		h.expect("source exhausted, lookup still running", working("lookup"))
		h.feedToolDone()
		h.expect("lookup done: the follow-up request", writing())
		if sent := h.server.requests(); len(sent) != 2 || sent[1].Messages[len(sent[1].Messages)-1].Role != "tool" {
			t.Fatalf("the tool result was not sent back: %+v", sent)
		}
		for len(h.pending) > 0 {
			if h.feedStream().More {
				h.expect("follow-up frame", writing())
			}
		}
		h.expect("turn over", answered())
		if got := h.m.View().Content; !strings.Contains(got, "2 headings: Intro, Usage") || !strings.Contains(got, "q=home") {
			t.Fatalf("the card does not show the call and its result:\n%s", got)
		}
	}
}

// (b): an error mid-stream leads to the error phase with Retry focused; the partial
// reply stays. (c): a [DONE] or a complete end arriving after the error changes nothing.
func TestErrorThenDoneAfterError(t *testing.T) {
	h := newHarness(t, "error-frame", 120, 24)
	h.submit("hello")
	h.expect("enter", writing())
	var last chat.StreamMsg
	for i := 0; i < 9; i++ { // a role-only frame, then eight words
		last = h.feedStream()
		h.expect("text frame", writing())
	}
	h.feedStream() // {"error": ...}
	errStatus := "The server sent an error: The server had an error while processing your request. Sorry about that! " + retryHint
	h.expect("error frame", failed(errStatus))
	if len(h.pending) != 0 {
		t.Fatalf("the engine kept reading after the error: %#v", h.pending)
	}
	content := h.m.View().Content
	if !strings.Contains(content, "Here is the start of an answer that") || !strings.Contains(content, "✗") {
		t.Fatalf("the partial reply is not kept and marked:\n%s", content)
	}

	done := wire.NewDecoder().Frame(wire.Frame{Data: "[DONE]"})
	h.send(chat.StreamMsg{Req: last.Req, Src: last.Src, Update: done, More: true})
	h.expect("[DONE] after the error", failed(errStatus))
	h.send(chat.StreamMsg{Req: last.Req, Src: last.Src, Result: wire.Result{Outcome: wire.OutcomeComplete}})
	h.expect("a complete end after the error", failed(errStatus))
	if got := h.m.View().Content; got != content {
		t.Fatalf("messages after the error changed the screen:\n%s", got)
	}
}

// Tab moves the cursor from Retry to the composer and Shift+Tab back; typing while Retry has
// the focus goes to the composer; Enter on Retry re-sends the same request, which succeeds.
func TestRetryFocusAndResend(t *testing.T) {
	h := newHarness(t, "flaky", 80, 24)
	h.submit("hello")
	h.feedStream()
	status := "HTTP 500 from fixtures.test: The server had an error while processing your request (this fixture fails every other time; retry). " + retryHint
	h.expect("HTTP 500", failed(status))
	h.send(keyTab)
	h.expect("tab", failed(status).inComposer())
	h.send(keyShiftTab)
	h.expect("shift+tab", failed(status))
	h.send(keyRune('x'))
	h.expect("typing on Retry", failed(status).inComposer())
	if h.m.composer.Value() != "x" {
		t.Fatalf("the typed key went elsewhere: composer %q", h.m.composer.Value())
	}
	h.send(keyShiftTab)
	h.send(keyEnter) // on Retry: re-sends, the composer keeps its draft
	h.expect("retry", writing())
	sent := h.server.requests()
	if len(sent) != 2 || len(sent[1].Messages) != 1 || sent[1].Messages[0].Text() != "hello" {
		t.Fatalf("Retry did not re-send the same request: %+v", sent)
	}
	h.feedAll()
	h.expect("retried", answered())
	if h.m.composer.Value() != "x" {
		t.Fatalf("the draft was lost: %q", h.m.composer.Value())
	}
}

// Ctrl+R regenerates the last reply: the old reply leaves the history and the transcript, and
// the same user message is sent again. It works from Retry too.
func TestCtrlRRegenerates(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello")
	h.feedAll()
	h.expect("answered", answered())
	before := len(h.m.Chat().Entries())
	h.send(keyCtrlR)
	h.expect("ctrl+r", writing())
	sent := h.server.requests()
	if len(sent) != 2 || len(sent[1].Messages) != 1 || sent[1].Messages[0].Text() != "hello" {
		t.Fatalf("Ctrl+R did not ask again with the user message alone: %+v", sent)
	}
	if got := len(h.m.Chat().Entries()); got != before {
		t.Fatalf("%d entries after regenerating, want %d (the old reply replaced)", got, before)
	}
	h.feedAll()
	h.expect("regenerated", answered())

	f := newHarness(t, "http-500", 80, 24)
	f.submit("hello")
	f.feedAll()
	if f.m.Chat().State.Phase != phase.Error {
		t.Fatalf("phase %s, want error", f.m.Chat().State.Phase)
	}
	f.send(keyCtrlR)
	f.expect("ctrl+r on Retry", writing())
	if n := len(f.server.requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}
