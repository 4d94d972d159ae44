package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// BenchmarkP2Linear shows the cost per argument byte does not grow with the arguments' size
// (no re-scan, no re-parse): 1-byte fragments of 64 KiB, 1 MiB and 4 MiB.
func BenchmarkP2Linear(b *testing.B) {
	for _, size := range []int{64 << 10, 1 << 20, 4 << 20} {
		frags := argumentFragmentsOf(size, 1)
		b.Run(fmt.Sprintf("size=%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(size))
			events := make([]phase.CallEvent, 0, 8)
			for b.Loop() {
				var a assembler
				for i := range frags {
					_, events = a.fragment(&frags[i], events[:0])
				}
				if !a.calls[0].lex.Closed() {
					b.Fatal("not closed")
				}
			}
		})
	}
}

// argumentFragments cuts 1 MiB of realistic argument JSON into fragments of size n.
func argumentFragments(n int) []wireToolCall { return argumentFragmentsOf(1<<20, n) }

// argumentFragmentsOf cuts size bytes of realistic argument JSON into fragments of n bytes.
func argumentFragmentsOf(size, n int) []wireToolCall {
	var text strings.Builder
	text.WriteString(`{"path":"notes.md","content":"`)
	for text.Len() < size {
		text.WriteString(`line of text with \"quotes\", \\ and \u00e9 characters\n`)
	}
	s := text.String()[:size-2] + `"}`
	if !json.Valid([]byte(s)) { // the cut may split an escape: end on a plain byte
		s = s[:size-8] + `xxxx"}`
	}
	var out []wireToolCall
	for i := 0; i < len(s); i += n {
		var tc wireToolCall
		tc.Index = wireIndex{0, true}
		tc.Function.Arguments = wireArgs{Text: s[i:min(len(s), i+n)], Set: true}
		out = append(out, tc)
	}
	out[0].ID = wireString{S: "call_1", Set: true}
	out[0].Function.Name = wireString{S: "write_file", Set: true}
	return out
}

// BenchmarkP2Arguments is P2 (docs/architecture.md, Performance): reassembling 1 MiB of arguments (routing, the
// incremental lexer, accumulation and the CallEvents) in 1-byte and 4 KiB fragments. SetBytes
// is the argument bytes, so ns/op and MB/s compare per byte.
func BenchmarkP2Arguments(b *testing.B) {
	for _, n := range []int{1, 4096} {
		frags := argumentFragments(n)
		b.Run(fmt.Sprintf("fragment=%d", n), func(b *testing.B) {
			b.SetBytes(1 << 20)
			b.ReportAllocs()
			events := make([]phase.CallEvent, 0, 8)
			for b.Loop() {
				var a assembler
				for i := range frags {
					_, events = a.fragment(&frags[i], events[:0])
				}
				events = a.finish(true, "", events[:0])
				if len(events) != 1 || events[0].Type != phase.CallReady || !a.calls[0].lex.Closed() {
					b.Fatalf("not ready and closed: %+v", events)
				}
			}
		})
	}
}

// callFragments is n calls of four argument fragments each, the first fragment bringing the
// id and name: all of each call in turn (sequence), or the first fragment of every call, then
// the second of every call, and so on (interleaved).
func callFragments(n int, interleaved bool) []wireToolCall {
	out := make([]wireToolCall, 0, 4*n)
	frag := func(call, k int) wireToolCall {
		var tc wireToolCall
		tc.Index = wireIndex{N: call, Set: true}
		parts := [4]string{`{"path":`, `"src/`, fmt.Sprintf(`%d.go"`, call), `}`}
		tc.Function.Arguments = wireArgs{Text: parts[k], Set: true}
		if k == 0 {
			tc.ID = wireString{S: fmt.Sprintf("call_%d", call), Set: true}
			tc.Function.Name = wireString{S: "read_file", Set: true}
		}
		return tc
	}
	if interleaved {
		for k := range 4 {
			for call := range n {
				out = append(out, frag(call, k))
			}
		}
		return out
	}
	for call := range n {
		for k := range 4 {
			out = append(out, frag(call, k))
		}
	}
	return out
}

// BenchmarkReassemblyOpenCalls is the cost per fragment of routing and applying fragments of
// 300, 1,000 and 3,000 calls, in sequence and interleaved (every call open at once). It
// should not grow with the number of open calls.
func BenchmarkReassemblyOpenCalls(b *testing.B) {
	for _, n := range []int{300, 1000, 3000} {
		for _, mode := range []string{"sequence", "interleaved"} {
			frags := callFragments(n, mode == "interleaved")
			b.Run(fmt.Sprintf("calls=%d/%s", n, mode), func(b *testing.B) {
				b.ReportAllocs()
				events := make([]phase.CallEvent, 0, 16)
				for b.Loop() {
					var a assembler
					for i := range frags {
						_, events = a.fragment(&frags[i], events[:0])
					}
					events = a.finish(true, "", events[:0])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(frags)), "ns/fragment")
			})
		}
	}
}
