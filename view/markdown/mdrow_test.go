package markdown

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// rowPieces are what a long table row is made of: inline constructs, separators escaped and
// not, spaces.
var rowPieces = append([]string{" | ", "|", "\\|", "\\", "   ", " |  "}, longLinePieces...)

// drawnWhole is what drawing text line by line from its start shows while it streams: its
// complete lines, then its partial last line drawn as still growing.
func drawnWhole(m *Renderer, text string) []string {
	var st blockState
	var b rows.Builder
	lines := strings.Split(text, "\n")
	for _, line := range lines[:len(lines)-1] {
		m.line(&st, safe.Text(line), true, &b)
	}
	m.line(&st, safe.Text(lines[len(lines)-1]), false, &b)
	return linesSlice(b.Snapshot())
}

// A table row streamed in pieces of any size is drawn, after each, as drawing the partial row
// whole draws it.
func TestAStreamingRowDrawsAsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pal := NewPalette(Dark())
	heads := []string{"| a | b |\n|---|---|\n", "| left | mid | right |\n|:--|:-:|--:|\n", "| one |\n|---|\n"}
	for trial := range 80 {
		var b strings.Builder
		b.WriteString(heads[trial%len(heads)])
		b.WriteString("| ")
		for b.Len() < 200+r.IntN(900) {
			b.WriteString(rowPieces[r.IntN(len(rowPieces))])
		}
		text := b.String()
		start := strings.LastIndexByte(text, '\n') + 1
		for _, width := range []int{30, 80, 120} {
			m := NewRenderer(pal, width, DefaultMeasure)
			var d Doc
			for cut := start + 1; cut <= len(text); cut += 1 + r.IntN(40) {
				for cut < len(text) && !utf8.RuneStart(text[cut]) {
					cut++
				}
				prefix := text[:cut]
				got := flat(docRuns(&d, m, prefix, true))
				if want := drawnWhole(m, prefix); !slices.Equal(got, want) {
					t.Fatalf("trial %d, width %d, cut %d: %q\ngot  %q\nwant %q", trial, width, cut, prefix, got, want)
				}
			}
		}
	}
}

// BenchmarkStreamTableRow streams one table row of two long cells in 256-byte deltas, reading
// a window's 40 last rows after each: the time per op grows with the row's size, not its
// square.
func BenchmarkStreamTableRow(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10} {
		cell := strings.Repeat("word ", size/10)
		text := "| a | b |\n|---|---|\n| " + cell + " | " + cell + " |\n"
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
			for b.Loop() {
				var d Doc
				for cut := 256; cut < len(text)+256; cut += 256 {
					runs := d.Update(m, text[:min(cut, len(text))], true)
					last := runs[len(runs)-1]
					for i := max(0, last.Len()-40); i < last.Len(); i++ {
						_ = last.At(i)
					}
				}
			}
		})
	}
}
