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

// drawnAtOnce is text's drawing, its last line a complete table row drawn whole at once.
func drawnAtOnce(m *Renderer, text string) []string {
	var st blockState
	var b rows.Builder
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for _, line := range lines[:len(lines)-1] {
		m.line(&st, safe.Text(line), true, &b)
	}
	m.gap(&st, &b)
	m.drawRow(st.table, safe.Text(lines[len(lines)-1]), 0, true, &b)
	return linesSlice(b.Snapshot())
}

// A long complete row, drawn a block at a time as its lines are read, in any order and at any
// width, shows what drawing it whole at once shows, whether its text is read again from the
// document or kept because sanitising changed it.
func TestALongRowDrawsAsWholeWhenRead(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pal := NewPalette(Dark())
	heads := []string{"| a | b |\n|---|---|\n", "| left | mid | right |\n|:--|:-:|--:|\n", "| one |\n|---|\n"}
	for trial := range 12 {
		var b strings.Builder
		b.WriteString(heads[trial%len(heads)])
		b.WriteString("| ")
		if trial%4 == 3 {
			b.WriteString("\x1b[31m") // sanitised to stand-ins: the row keeps its own text
		}
		if trial%3 == 1 { // spans open across many display lines, one of them never closed
			b.WriteString("**" + strings.Repeat("bold words ", longLine/20) + "** `" + strings.Repeat("code ", longLine/10) + "` *")
		}
		for b.Len() < longLine+r.IntN(3*longLine) {
			b.WriteString(rowPieces[r.IntN(len(rowPieces))])
		}
		text := b.String()
		if trial%2 == 0 {
			text += "\n"
		}
		for _, width := range []int{30, 80, 120} {
			m := NewRenderer(pal, width, DefaultMeasure)
			want := drawnAtOnce(m, text)
			var d Doc
			all := d.Update(m, text, false)
			n, held := 0, 0
			for _, run := range all {
				n += run.Len()
				held += run.Size()
			}
			if trial%4 != 3 && held > len(text)/4 {
				t.Fatalf("trial %d, width %d: a %d-byte row holds %d bytes once complete", trial, width, len(text), held)
			}
			if n != len(want) {
				t.Fatalf("trial %d, width %d: %d rows, want %d", trial, width, n, len(want))
			}
			got := rows.AppendRange(nil, all, 0, n)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, width %d: the row read in order differs from its drawing at once", trial, width)
			}
			for range 60 {
				lo := r.IntN(n)
				hi := min(n, lo+1+r.IntN(3*rowBlock))
				if got := rows.AppendRange(nil, all, lo, hi); !slices.Equal(got, want[lo:hi]) {
					t.Fatalf("trial %d, width %d: rows %d..%d read\n%q\nwant\n%q", trial, width, lo, hi, got, want[lo:hi])
				}
			}
		}
	}
}

// BenchmarkLongRowWindow reads a 40-row window of a complete row of two long cells, one row
// further down each time, as a window scrolling through it does: the time per op follows the
// window, not the row's size, whether its display lines end between words or inside links.
func BenchmarkLongRowWindow(b *testing.B) {
	for _, shape := range []struct{ name, piece string }{{"words", "word "}, {"links", linkPiece}} {
		for _, size := range []int{256 << 10, 2 << 20} {
			benchmarkLongRowWindow(b, shape.name+"/"+strconv.Itoa(size>>10)+"KiB", strings.Repeat(shape.piece, size/2/len(shape.piece)))
		}
	}
}

func benchmarkLongRowWindow(b *testing.B, name, cell string) {
	text := "| a | b |\n|---|---|\n| " + cell + " | " + cell + " |\n"
	b.Run(name, func(b *testing.B) {
		m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
		var d Doc
		all := d.Update(m, text, false)
		n := 0
		for _, run := range all {
			n += run.Len()
		}
		top := n / 2
		var dst []string
		for b.Loop() {
			dst = rows.AppendRange(dst[:0], all, top, top+40)
			top = (top + 1) % (n - 40)
		}
	})
}

// A long complete line of text, drawn a block at a time as its lines are read, in any order
// and at any width, shows what drawing it whole shows, under its prefixes: a list item's, a
// quote's, a heading's.
func TestALongTextLineDrawsAsWholeWhenRead(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pal := NewPalette(Dark())
	for trial, lead := range []string{"", "- ", "> ", "## ", "1. ", "", "\x1b[1m"} {
		line := lead + longLineOf(r, longLine+r.IntN(2*longLine))
		if lead == "## " {
			line += " ##"
		}
		for _, width := range []int{30, 120} {
			m := NewRenderer(pal, width, DefaultMeasure)
			s := safe.Text(line)
			sh := m.shape(&blockState{}, s)
			content := s[sh.content:]
			if sh.kind == shapeHeading {
				content = trimClosingHashes(content)
			}
			var b rows.Builder
			m.wrappedLong(sh, content, true, &b, longLineChunk)
			want := linesSlice(b.Snapshot())
			for _, text := range []string{line, line + "\n"} {
				var d Doc
				all := d.Update(m, text, false)
				n, held := 0, 0
				for _, run := range all {
					n, held = n+run.Len(), held+run.Size()
				}
				if got := rows.AppendRange(nil, all, 0, n); !slices.Equal(got, want) {
					t.Fatalf("trial %d, width %d: the line read in order differs from its drawing whole", trial, width)
				}
				if s == line && held > len(text)/4 {
					t.Fatalf("trial %d, width %d: a %d-byte line holds %d bytes once complete", trial, width, len(text), held)
				}
				for range 40 {
					lo := r.IntN(n)
					hi := min(n, lo+1+r.IntN(3*rowBlock))
					if got := rows.AppendRange(nil, all, lo, hi); !slices.Equal(got, want[lo:hi]) {
						t.Fatalf("trial %d, width %d: rows %d..%d read\n%q\nwant\n%q", trial, width, lo, hi, got, want[lo:hi])
					}
				}
			}
		}
	}
}

// A long line streamed in pieces of any size is drawn, after each, as drawing the partial line
// whole draws it: its committed lines before the last mark drawn again from their marks, under
// a list item's or a quote's prefixes.
func TestALongPartialLineDrawsAsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	pal := NewPalette(Dark())
	for trial, lead := range []string{"- ", "> ", ""} {
		text := lead + longLineOf(r, 3*longLine)
		for _, width := range []int{30, 90} {
			m := NewRenderer(pal, width, DefaultMeasure)
			var d Doc
			for cut := 1 + r.IntN(100); cut <= len(text); cut += 1 + r.IntN(4096) {
				for cut < len(text) && !utf8.RuneStart(text[cut]) {
					cut++
				}
				prefix := text[:cut]
				runs := d.Update(m, prefix, true)
				want := drawnWhole(m, prefix)
				n := 0
				for _, run := range runs {
					n += run.Len()
				}
				if got := rows.AppendRange(nil, runs, 0, n); !slices.Equal(got, want) {
					t.Fatalf("trial %d, width %d, cut %d: got %d rows, want %d; first difference at %d", trial, width, cut, len(got), len(want), firstDiff(got, want))
				}
			}
		}
	}
}
