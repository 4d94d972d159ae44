package wire

import "testing"

// BenchmarkP1WireBareScan is the pipeline's own decoding alone: the one-pass event scanner
// over the same payloads, already cut out (what the pipeline adds to it is framing, the call
// lifecycle, the reducer and the machine).
func BenchmarkP1WireBareScan(b *testing.B) {
	for _, as := range []Wire{WireAnthropic, WireResponses} {
		body, payloads := wireStream(as)
		texts := make([]string, len(payloads))
		for i, p := range payloads {
			texts[i] = string(p)
		}
		b.Run(string(as), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range texts {
					var ok bool
					if as == WireAnthropic {
						var e anthropicEvent
						ok = decodeAnthropicEvent(p, &e)
					} else {
						var e responsesEvent
						ok = decodeResponsesEvent(p, &e)
					}
					if !ok {
						b.Fatal(p)
					}
				}
			}
		})
	}
}

// BenchmarkChatChunkScan is the Chat Completions chunk scanner alone over the realistic
// stream's payloads, already cut out.
func BenchmarkChatChunkScan(b *testing.B) {
	body, payloads := realisticStream()
	texts := make([]string, len(payloads))
	for i, p := range payloads {
		texts[i] = string(p)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var pools chunkPools
	for b.Loop() {
		for _, p := range texts {
			var ch wireChunk
			if !decodeChunk(p, &ch, &pools) {
				b.Fatal(p)
			}
		}
	}
}
