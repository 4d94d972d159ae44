package stream

import (
	"github.com/phasechat/phasechat/stream/internal/ssetest"
	"github.com/phasechat/phasechat/stream/wire"
)

// The shared builders of SSE bodies and payloads (stream/internal/ssetest), by the short names
// these tests use.
var (
	delta                = ssetest.Delta
	tool                 = ssetest.Tool
	finishChunk          = ssetest.FinishChunk
	realisticStream      = ssetest.RealisticStream
	equivalenceScenarios = ssetest.Scenarios
)

const (
	aStart     = ssetest.AStart
	aStop      = ssetest.AStop
	aDeltaTool = ssetest.ADeltaTool
	seed004    = ssetest.Seed004
)

// wireStream is ssetest.WireStream of format w.
func wireStream(w wire.Wire) (body []byte, payloads [][]byte) { return ssetest.WireStream(string(w)) }

// referenceFrames is ssetest.Frames as Frames.
func referenceFrames(body string) []wire.Frame {
	var out []wire.Frame
	for _, e := range ssetest.Frames(body) {
		out = append(out, wire.Frame{Event: e.Event, Data: e.Data})
	}
	return out
}
