package chat

import (
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// TestSettled follows a tool-using turn, a failure and its retry, and a stop: the entries
// before the current request's reply are settled; with no request current, all are.
func TestSettled(t *testing.T) {
	h := newHarness(t, Config{Model: "m", Tools: fakeTools{}, CanAsk: true})
	c := h.c
	steps := []struct {
		name string
		do   func()
		want int // Settled afterwards
		len  int // entries afterwards
	}{
		{"idle", func() {}, 0, 0},
		{"a notice", func() { c.Notice("hello") }, 1, 1},
		{"sent: the prompt settles, the reply streams", func() { h.do(c.Submit("hi")) }, 2, 3},
		{"text streams", func() { h.feed(text("Looking")) }, 2, 3},
		{"a tool call", func() { h.feed(toolFrame("lookup", start("c1", "lookup"), delta("c1", `{}`))) }, 2, 3},
		{"the stream ends, the tool runs", func() { h.feed(doneUpdate(ready("c1"))); h.end(complete(nil)) }, 2, 3},
		{"the result: the next request's reply streams", func() { h.toolDone("c1", "found", false) }, 3, 4},
		{"the second reply fails", func() { h.feed(errorUpdate("boom")) }, 4, 4},
		{"retry: a new reply streams", func() { h.do(c.Retry()) }, 4, 5},
		{"a notice while it streams waits behind it", func() { c.Notice("log trouble") }, 4, 6},
		{"stopped", func() { h.feed(text("part")); h.do(c.Stop()) }, 6, 6},
		{"cleared", func() { c.ClearTranscript() }, 0, 0},
		{"restarted with history", func() {
			c.Restart([]wire.Message{{Role: "user", Parts: wire.TextParts("q")}, {Role: "assistant", Parts: wire.TextParts("a")}})
		}, 2, 2},
	}
	for _, s := range steps {
		s.do()
		if got, n := c.Settled(), len(c.Entries()); got != s.want || n != s.len {
			t.Fatalf("%s: Settled() = %d of %d entries, want %d of %d", s.name, got, n, s.want, s.len)
		}
	}
}
