package chat

import (
	"fmt"
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
