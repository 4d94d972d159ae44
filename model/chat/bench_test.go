package chat

import (
	"fmt"
	"github.com/phasechat/phasechat/internal/budget"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// BenchmarkToolCallLife takes a reply of n calls through the engine, each call's life whole:
// start, 64 argument deltas, ready, run, result. The cost per call shows whether handing every
// card its snapshot after each event grows with the calls of the reply.
func BenchmarkToolCallLife(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprint(n, "calls"), func(b *testing.B) {
			var frames []wire.Update
			for i := range n {
				id := fmt.Sprint("c", i)
				calls := []phase.CallEvent{start(id, "now"), delta(id, "{")}
				for range 62 {
					calls = append(calls, delta(id, " "))
				}
				frames = append(frames, toolFrame("now", append(calls, delta(id, "}"), ready(id))...))
			}
			for b.Loop() {
				c := New(Config{Tools: fakeTools{}}, nil)
				effects := c.Submit("go")
				req := effectsOf[OpenStream](effects)[0].Req
				for _, f := range frames {
					c.HandleStream(StreamMsg{Req: req, Update: f, More: true})
				}
				c.HandleStream(StreamMsg{Req: req, Result: wire.Result{Outcome: wire.OutcomeComplete}})
				for i := range n {
					c.HandleToolDone(ToolDoneMsg{Req: req, CallID: fmt.Sprint("c", i), Result: phase.ToolResult{Output: "noon"}})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
		})
	}
}

// BenchmarkCompactedRequest builds the history a request sends from a conversation of 1,000
// turns (a third with a tool call), with and without a compaction standing for all but the
// last two: the cost every request pays, and what the over-window estimate adds to a turn.
func BenchmarkCompactedRequest(b *testing.B) {
	var tools []int
	for i := 1; i <= 1000; i += 3 {
		tools = append(tools, i)
	}
	history := conversation(1000, tools...)
	for _, turns := range []int{0, 998} {
		b.Run(fmt.Sprint("compacted=", turns), func(b *testing.B) {
			c := New(Config{Model: "m", Budget: budget.Model{Window: 128_000}}, history)
			if turns > 0 {
				c.SetCompactions([]Compaction{{Summary: "the summary", Turns: turns}})
			}
			for b.Loop() {
				_ = c.sent()
				_ = c.requestTokens()
			}
		})
	}
}
