package tui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
)

// statusRow is the screen's row holding the status line's control (Stop or Retry).
func statusRow(h *harness) string {
	for _, row := range strings.Split(h.m.View().Content, "\n") {
		if strings.Contains(row, "[ ") && strings.HasSuffix(strings.TrimSpace(row), "]") {
			return row
		}
	}
	return ""
}

func TestA429CountsDownAndRetriesOnce(t *testing.T) {
	h := newHarness(t, "http-429", 120, 24)
	h.submit("hello")
	h.feedAll()
	h.expect("429", failed(phase.Status(h.m.Chat().State)))
	status := phase.Status(h.m.Chat().State)
	if strings.Count(status, "20s") != 1 {
		t.Errorf("the wait is said more than once: %q", status)
	}
	if row := statusRow(h); !strings.Contains(row, "[ Retry in 20s · Enter now ]") {
		t.Fatalf("no countdown on the control: %q", row)
	}
	for left := 19; left >= 1; left-- {
		h.fire()
		if row := statusRow(h); !strings.Contains(row, "Retry in "+itoa(left)+"s") {
			t.Fatalf("after %d ticks the control reads %q", 20-left, row)
		}
	}
	if n := len(h.server.requests()); n != 1 {
		t.Fatalf("%d requests before the countdown ended", n)
	}
	h.fire() // zero: the automatic retry
	if n := len(h.server.requests()); n != 2 {
		t.Fatalf("%d requests after the countdown, want the one automatic retry", n)
	}
	h.feedAll()
	h.expect("429 again", failed(phase.Status(h.m.Chat().State)))
	if row := statusRow(h); !strings.Contains(row, "[ Retry · Enter ]") || retryTimers(h) != 0 {
		t.Fatalf("a second failure must not retry on its own: %q, timers %v", row, h.timers)
	}
}

func TestEnterRetriesNowDuringTheCountdown(t *testing.T) {
	h := newHarness(t, "http-429", 120, 24)
	h.submit("hello")
	h.feedAll()
	h.fire()
	h.send(keyEnter)
	if n := len(h.server.requests()); n != 2 {
		t.Fatalf("%d requests; Enter must retry at once", n)
	}
	h.feedAll()
	// The user retried: this failure gets its own countdown again.
	if row := statusRow(h); !strings.Contains(row, "Retry in 20s") {
		t.Fatalf("control %q", row)
	}
	h.fire() // the old countdown's tick is dropped; the new one's ticks
	if n := len(h.server.requests()); n != 2 {
		t.Fatalf("the cancelled countdown still retried: %d requests", n)
	}
	if row := statusRow(h); !strings.Contains(row, "Retry in 19s") {
		t.Fatalf("control %q", row)
	}
}

func TestAFailureBeforeTheFirstByteIsRetriedOnceQuickly(t *testing.T) {
	h := newHarness(t, "html-502", 120, 24)
	h.submit("hello")
	h.feedAll()
	if row := statusRow(h); !strings.Contains(row, "[ Retrying once… · Enter now ]") {
		t.Fatalf("the quick retry is not said on screen: %q", row)
	}
	h.fire()
	if n := len(h.server.requests()); n != 2 {
		t.Fatalf("%d requests, want the quick retry", n)
	}
	h.feedAll()
	if row := statusRow(h); !strings.Contains(row, "[ Retry · Enter ]") || retryTimers(h) != 0 {
		t.Fatalf("only one quick retry: %q", row)
	}
}

func TestATooLongConversationFocusesTheComposer(t *testing.T) {
	h := newHarness(t, "http-400", 120, 24)
	h.submit("hello")
	h.feedAll()
	st := h.m.Chat().State
	if !strings.Contains(phase.Status(st), "too long") {
		t.Fatalf("status %q", phase.Status(st))
	}
	h.expect("400", failed(phase.Status(st)).inComposer())
	if retryTimers(h) != 0 {
		t.Fatal("retrying cannot help: no automatic retry")
	}
	h.send(keyShiftTab) // Retry stays reachable
	h.expect("shift+tab", failed(phase.Status(st)))
}

func TestSilenceIsCountedOnTheStatusLine(t *testing.T) {
	h := newHarness(t, "text", 120, 24)
	h.submit("hello")
	for i := 1; i < waitingAfter; i++ {
		h.fire()
	}
	if row := statusRow(h); strings.Contains(row, "waiting") {
		t.Fatalf("too early: %q", row)
	}
	h.fire()
	if row := statusRow(h); !strings.Contains(row, "Writing a reply. Esc stops generating.   waiting 3s") {
		t.Fatalf("no silence shown after 3s: %q", row)
	}
	h.fire()
	if row := statusRow(h); !strings.Contains(row, "waiting 4s") {
		t.Fatalf("not refreshed: %q", row)
	}
	h.feedStream() // something arrives: the count starts again
	if row := statusRow(h); strings.Contains(row, "waiting") {
		t.Fatalf("still waiting after data: %q", row)
	}
}

// TestIdleSchedulesNothing: once a turn is over, no timer of the model is pending and none
// that was pending schedules another; so an idle chat never wakes (a ticker coming back would
// show up here as a timer still scheduled).
func TestIdleSchedulesNothing(t *testing.T) {
	for _, scenario := range []string{"text", "http-500", "tool-then-text"} {
		h := newHarness(t, scenario, 120, 24)
		if h.m.Init() != nil {
			t.Fatal("Init starts a command")
		}
		h.submit("hello")
		for range 5 {
			h.fire()
			h.feedAll()
		}
		if h.m.Chat().State.Phase.Streaming() {
			t.Fatalf("%s: still streaming", scenario)
		}
		h.fire() // anything still scheduled from the turn
		if len(h.timers) != 0 || len(h.pending) != 0 {
			t.Fatalf("%s: idle, yet %d timers and %d messages are pending", scenario, len(h.timers), len(h.pending))
		}
		h.typeText("next") // keys while idle schedule nothing either
		if len(h.timers) != 0 {
			t.Fatalf("%s: typing scheduled a timer", scenario)
		}
	}
}

// retryTimers counts the retry ticks scheduled.
func retryTimers(h *harness) int {
	n := 0
	for _, msg := range h.timers {
		if w, ok := msg.(waitMsg); ok && w.wait.For == chat.WaitRetry {
			n++
		}
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
