package wire

import "github.com/phasechat/phasechat/stream/internal/ssetest"

// The shared builders of SSE bodies and payloads (stream/internal/ssetest), by the short names
// these tests use.
var (
	delta                = ssetest.Delta
	tool                 = ssetest.Tool
	finishChunk          = ssetest.FinishChunk
	sseBody              = ssetest.SSEBody
	aBlock               = ssetest.ABlock
	aDelta               = ssetest.ADelta
	aBlockStop           = ssetest.ABlockStop
	aArgs                = ssetest.AArgs
	rCompleted           = ssetest.RCompleted
	rCall                = ssetest.RCall
	rArgs                = ssetest.RArgs
	rArgsDone            = ssetest.RArgsDone
	rText                = ssetest.RText
	realisticStream      = ssetest.RealisticStream
	equivalenceScenarios = ssetest.Scenarios
)

const (
	aStart                = ssetest.AStart
	aStop                 = ssetest.AStop
	aDeltaTool            = ssetest.ADeltaTool
	realisticStreamSHA256 = ssetest.RealisticStreamSHA256
	seed004               = ssetest.Seed004
)

// wireStream is ssetest.WireStream of format w.
func wireStream(w Wire) (body []byte, payloads [][]byte) { return ssetest.WireStream(string(w)) }
