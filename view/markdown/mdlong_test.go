package markdown

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// longLinePieces are the inline constructs a long line is made of, closed and left open.
var longLinePieces = []string{
	"word ", "longer words here ", "**bold** ", "*italic* ", "~~strike~~ ", "`code span` ",
	"[a link](https://example.com/x) ", "![alt](img.png) ", "&amp; ", "\t", "日本語の文 ",
	"averyveryveryverylongwordthatmustbecutinsidebecauseitiswiderthanaline ", "**", "*", "`",
	"~~", "[", "\\*", "  ", "e\u0301 ", "_a_ ", "__b__ ", "***c*** ",
}

func longLineOf(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(longLinePieces[r.IntN(len(longLinePieces))])
	}
	return b.String()
}

// Drawn in chunks of any size, a line comes out exactly as drawn whole, final or still growing.
func TestLongLineInChunksDrawsAsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pal := NewPalette(Dark())
	for trial := range 60 {
		s := longLineOf(r, 50+r.IntN(600))
		for _, width := range []int{12, 37, 120} {
			for _, final := range []bool{true, false} {
				m := NewRenderer(pal, width, DefaultMeasure)
				sh := m.shape(&blockState{}, s)
				var whole rows.Builder
				m.wrapped(sh, parseLine(s[sh.content:], sh.base, final), &whole)
				want := linesSlice(whole.Snapshot())
				for _, chunk := range []int{1, 2, 5, 64} {
					var got rows.Builder
					m.wrappedLong(sh, s[sh.content:], final, &got, chunk)
					if g := linesSlice(got.Snapshot()); !slices.Equal(g, want) {
						t.Fatalf("trial %d, width %d, final %v, chunk %d: %q\ngot  %q\nwant %q", trial, width, final, chunk, s, g, want)
					}
					counting := rows.NewCounter()
					m.wrappedLong(sh, s[sh.content:], final, &counting, chunk)
					if counting.Len() != len(want) {
						t.Fatalf("trial %d: counted %d rows, drew %d", trial, counting.Len(), len(want))
					}
				}
			}
		}
	}
}

// A reply on one long line is drawn holding a few chunks of its cells, not all of them: the
// cells a display line is drawn from are never more than two chunks and the lines still open.
func TestLongLineHoldsNoCellsForItsLength(t *testing.T) {
	text := longLineOf(rand.New(rand.NewPCG(3, 4)), 256<<10)
	for _, final := range []bool{false, true} {
		most := 0
		p := inlineParser{src: text, final: final}
		wrapChunked(&p, 120, longLineChunk, func(cells []cell, _ cellLine) { most = max(most, len(cells)) })
		if most > 2*longLineChunk+2*120 {
			t.Fatalf("final %v: a %d-byte line was drawn from %d cells at once", final, len(text), most)
		}
	}
	// And once drawn, the renderer keeps no cells of it for the lines after it.
	m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
	var d Doc
	d.Update(m, text, true)
	d.Update(m, text, false)
	if cap(m.cells) > 4*longLineChunk {
		t.Fatalf("after a %d-byte line the renderer keeps room for %d cells", len(text), cap(m.cells))
	}
}

// A clean partial line is parsed from the reply's own text: the document holds no sanitised
// copy of it, however long it grows.
func TestCleanPartialLineIsNotCopied(t *testing.T) {
	m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
	text := "a first line\n" + strings.Repeat("words of one long streaming line ", 4000)
	var d Doc
	for cut := 100; cut < len(text); cut += 997 {
		d.Update(m, text[:cut], true)
	}
	d.Update(m, text, true)
	line := d.san.View(text[d.scan:])
	if len(line) == 0 || unsafe.StringData(line) != unsafe.StringData(text[d.scan:]) {
		t.Fatalf("the partial line (%d bytes) is a copy of the text", len(line))
	}
	d.Update(m, text+"\x1b[31m more", true)
	if got := d.san.View((text + "\x1b[31m more")[d.scan:]); strings.Contains(got, "\x1b") || !strings.HasSuffix(got, "␛[31m more") {
		t.Fatalf("after an escape the partial line ends %q", got[max(0, len(got)-20):])
	}
}

// A burst of text on a partial line (a frame that came late) does not leave the line's
// scratch sized for the burst.
func TestPartialLineScratchIsNotSizedByABurst(t *testing.T) {
	m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
	text := strings.Repeat("words of one long streaming line ", 2000)
	var d Doc
	d.Update(m, text[:100], true)
	d.Update(m, text, true)
	if c := cap(d.open.grow.cells); c > keptScratch {
		t.Fatalf("after a %d-byte burst the partial line keeps room for %d cells", len(text)-100, c)
	}
	row := "| a | b |\n|---|---|\n| " + text
	var r Doc
	r.Update(m, row[:len(row)-len(text)+100], true)
	r.Update(m, row, true)
	if c := cap(r.row.cell.grow.cells); c > keptScratch {
		t.Fatalf("after a %d-byte burst the partial row keeps room for %d cells", len(text)-100, c)
	}
}
