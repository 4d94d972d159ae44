package wire

import (
	"fmt"
	"strings"
	"testing"
)

// signatureFrames is an Anthropic stream of one thinking block whose signature comes in n
// deltas of 64 bytes each.
func signatureFrames(n int) []Frame {
	frames := sseFrames(sseBody("", aStart, "", aBlock(0, `{"type":"thinking","thinking":"","signature":""}`)))
	d := sseFrames(sseBody("", aDelta(0, `{"type":"signature_delta","signature":"`+strings.Repeat("A", 64)+`"}`)))[0]
	for range n {
		frames = append(frames, d)
	}
	return append(frames, sseFrames(sseBody("", aBlockStop(0), "", aStop))...)
}

// Signature deltas are gathered in linear time: the time per delta stays flat as the
// signature grows (compare ns/op/delta across the sizes).
func BenchmarkAnthropicSignatureDeltas(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 13, 1 << 15} {
		frames := signatureFrames(n)
		b.Run(fmt.Sprintf("deltas=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				dec := NewFrameDecoder(WireAnthropic)
				for _, f := range frames {
					dec.Frame(f)
				}
				dec.End(nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/delta")
		})
	}
}
