package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/model/chat"
)

// TestQueuedToolsShowWaiting: with one tool at a time, a reply of three calls shows the first
// running and the other two waiting for a free slot, not running; once the first ends the
// second runs and only the third waits. The screens are goldens.
func TestQueuedToolsShowWaiting(t *testing.T) {
	h := newHarness(t, "parallel-tools", 100, 24, func(c *chat.Config) { c.MaxTools = 1 })
	h.submit("what time is it, what is here, and what does the README say")
	for !hasPending[chat.ToolDoneMsg](h) {
		h.feedStream()
	}
	for hasPending[chat.StreamMsg](h) {
		h.feedStream()
	}
	first := h.m.View().Content
	if n := strings.Count(first, "queued: 1 tool running"); n != 2 {
		t.Errorf("%d cards say they wait for a slot, want 2:\n%s", n, first)
	}
	if n := strings.Count(first, "running"); n != 3 {
		t.Errorf("want one running card and two queued behind it:\n%s", first)
	}
	golden.RequireEqual(t, []byte(first))

	done := takeNext[chat.ToolDoneMsg](h)
	done.Result.Output, done.Result.Duration = "noon", toolDuration // not the clock
	h.send(done)
	second := h.m.View().Content
	if n := strings.Count(second, "queued: 1 tool running"); n != 1 {
		t.Errorf("%d cards say they wait for a slot after the first ended, want 1:\n%s", n, second)
	}
	t.Run("after-one-ended", func(t *testing.T) { golden.RequireEqual(t, []byte(second)) })
}

func hasPending[T any](h *harness) bool {
	for _, msg := range h.pending {
		if _, ok := msg.(T); ok {
			return true
		}
	}
	return false
}
