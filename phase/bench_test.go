package phase

import (
	"strconv"
	"strings"
	"testing"
)

// Apply of 1 MiB of argument text, delivered in deltas of each size, then ready. The per-byte
// cost must not depend on the delta size (no re-copy of the accumulated text per delta).
func BenchmarkApplyArgs(b *testing.B) {
	const total = 1 << 20
	// A JSON string value padded to 1 MiB, so ready parses valid JSON.
	args := `{"blob":"` + strings.Repeat("a", total-len(`{"blob":""}`)) + `"}`
	for _, size := range []int{1, 64, 4096} {
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				m := NewToolCalls()
				m.Apply(start("c", "blob"))
				ev := CallEvent{Type: CallDelta, ID: "c"}
				for i := 0; i < len(args); i += size {
					ev.ArgsTextDelta = args[i:min(i+size, len(args))]
					m.Apply(ev)
				}
				m.Apply(ready("c"))
			}
		})
	}
}

// The streaming part alone (start + deltas, no parse): what each token costs while it arrives.
func BenchmarkApplyDeltasOnly(b *testing.B) {
	const total = 1 << 20
	for _, size := range []int{1, 4096} {
		piece := strings.Repeat("a", size)
		b.Run(sizeName(size), func(b *testing.B) {
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				m := NewToolCalls()
				m.Apply(start("c", "blob"))
				ev := delta("c", piece)
				for n := 0; n < total; n += size {
					m.Apply(ev)
				}
			}
		})
	}
}

func BenchmarkReduceTextToken(b *testing.B) {
	s := Reduce(State{}, Event{Kind: KindSubmit})
	ev := Event{Kind: KindText, Delta: "token "}
	b.ReportAllocs()
	for b.Loop() {
		s = Reduce(s, ev)
		if s.Text.Len() > 1<<24 {
			s = Reduce(s, Event{Kind: KindSubmit})
		}
	}
}

func sizeName(n int) string {
	if n >= 1024 {
		return strconv.Itoa(n/1024) + "KiB"
	}
	return strconv.Itoa(n) + "B"
}
