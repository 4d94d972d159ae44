package safe_test

import (
	"strings"
	"testing"

	. "github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

// fill repeats unit up to n bytes, cut at a rune boundary.
func fill(unit string, n int) string {
	s := strings.Repeat(unit, n/len(unit)+1)[:n]
	for len(s) > 0 && !utf8RuneStartAt(s, len(s)) {
		s = s[:len(s)-1]
	}
	return s
}

func utf8RuneStartAt(s string, i int) bool { return i == len(s) || s[i]&0xc0 != 0x80 }

var (
	proseASCII = "The stream said what it was doing, once.\tThen it stopped; the reply was kept.\n"
	proseMixed = "Grüße aus Köln — “naïve café” 世界你好 Привет мир 🙂👍🏽 नमस्ते مرحبا\n"
)

// proseEmoji is text dense in emoji sequences, so deltas often end inside one and are held.
var proseEmoji = "Team 👨\u200d👩\u200d👧\u200d👦 and 👩🏽\u200d💻 under 🏳\ufe0f\u200d🌈 and " +
	"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F, press 1\ufe0f\u20e3 ❤\ufe0f\n"

func hostileHeavy() string {
	var b strings.Builder
	for _, h := range safetest.HostileInputs {
		b.WriteString(h.Input)
		b.WriteByte(' ')
	}
	return b.String()
}

func BenchmarkText(b *testing.B) {
	const size = 64 << 10
	for _, bc := range []struct{ name, in string }{
		{"ascii-prose-64KiB", fill(proseASCII, size)},
		{"mixed-unicode-64KiB", fill(proseMixed, size)},
		{"ascii-one-esc-at-end-64KiB", fill(proseASCII, size-1) + "\x1b"},
		{"hostile-heavy-64KiB", fill(hostileHeavy(), size)},
		{"emoji-sequences-64KiB", fill(proseEmoji, size)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Text(bc.in)
			}
		})
	}
}

// BenchmarkStream appends 1 MiB of mixed text (multi-byte runes split across deltas) in deltas
// of the given size; ns/delta shows the per-token cost.
func BenchmarkStream(b *testing.B) {
	const size = 1 << 20
	for _, bc := range []struct {
		name  string
		in    string
		delta int
	}{
		{"mixed-1B-deltas-1MiB", fill(proseMixed, size), 1},
		{"mixed-16B-deltas-1MiB", fill(proseMixed, size), 16},
		{"hostile-16B-deltas-1MiB", fill(hostileHeavy(), size), 16},
		{"emoji-sequences-16B-deltas-1MiB", fill(proseEmoji, size), 16},
	} {
		deltas := splitEvery(bc.in, bc.delta)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			b.ReportAllocs()
			for b.Loop() {
				var s Stream
				for _, d := range deltas {
					s.Append(d)
				}
				_ = s.Finish()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(deltas)), "ns/delta")
		})
	}
}

// BenchmarkStreamAppendAt shows an append costs the same however much text came before it.
func BenchmarkStreamAppendAt(b *testing.B) {
	for _, bc := range []struct {
		name  string
		prior int
	}{{"after-64KiB", 64 << 10}, {"after-16MiB", 16 << 20}} {
		b.Run(bc.name, func(b *testing.B) {
			delta := "Привет 🙂 " // 19 bytes, multi-byte runes
			var s Stream
			s.Append(fill(proseMixed, bc.prior))
			b.ReportAllocs()
			for b.Loop() {
				s.Append(delta)
			}
		})
	}
}

func splitEvery(s string, n int) []string {
	var out []string
	for len(s) > n {
		out, s = append(out, s[:n]), s[n:]
	}
	return append(out, s)
}
