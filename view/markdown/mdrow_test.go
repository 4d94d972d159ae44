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
// square, whether its display lines end between words or inside links.
func BenchmarkStreamTableRow(b *testing.B) {
	for _, shape := range []struct{ name, piece string }{{"words", "word "}, {"links", linkPiece}} {
		for _, size := range []int{64 << 10, 256 << 10} {
			benchmarkStreamTableRow(b, shape.name+"/"+strconv.Itoa(size>>10)+"KiB", strings.Repeat(shape.piece, size/2/len(shape.piece)))
		}
	}
}

func benchmarkStreamTableRow(b *testing.B, name, cell string) {
	text := "| a | b |\n|---|---|\n| " + cell + " | " + cell + " |\n"
	b.Run(name, func(b *testing.B) {
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

// A complete cell of a partial row, cut into chunks of any size, comes out as drawing it whole
// does: wide characters at a cut, and spans open across one, included.
func TestCellPartsInChunksDrawAsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
	for trial := range 60 {
		text := strings.TrimSpace(longLineOf(r, 50+r.IntN(600)))
		for _, width := range []int{3, 12, 37} {
			cells := parseLine(text, 0, false)
			var want []part
			for _, l := range wrapWords(cells, width) {
				want = append(want, partOf(m, cells, l))
			}
			for _, chunk := range []int{1, 2, 5, 64} {
				c := measuredWrap(text, width, 0, false, chunk)
				var got []part
				for j := range c.lines {
					got = append(got, c.at(m, text, c.lines, j))
				}
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d, width %d, chunk %d: %q\ngot  %+v\nwant %+v", trial, width, chunk, text, got, want)
				}
			}
		}
	}
}

// A row whose first cell is longer than a chunk of cells streams as drawing it whole draws
// it, with wide characters and a bold span across the chunks' cuts.
func TestARowWithACellLongerThanAChunkDrawsAsWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("| a | b |\n|---|---|\n| **")
	for i := 0; b.Len() < 3*longLineChunk; i++ {
		b.WriteString("日本語の文 word ")
	}
	b.WriteString("** end | second cell with `code` |")
	text := b.String()
	start := strings.LastIndexByte(text, '\n') + 1
	m := NewRenderer(NewPalette(Dark()), 80, DefaultMeasure)
	var d Doc
	for cut := start + 1; cut <= len(text); cut += 977 {
		for cut < len(text) && !utf8.RuneStart(text[cut]) {
			cut++
		}
		prefix := text[:min(cut, len(text))]
		if got, want := flat(docRuns(&d, m, prefix, true)), drawnWhole(m, prefix); !slices.Equal(got, want) {
			t.Fatalf("cut %d: got %d rows, want %d; first difference at %d", cut, len(got), len(want), firstDiff(got, want))
		}
	}
	if got, want := flat(docRuns(&d, m, text, true)), drawnWhole(m, text); !slices.Equal(got, want) {
		t.Fatalf("whole row: got %d rows, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
