package markdown

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// randomCells is a line of cells: words and runs of spaces, some cells two columns or none wide.
func randomCells(rng *rand.Rand, n int, wide bool) []cell {
	var cells []cell
	for range n {
		switch r := rng.Intn(10); {
		case r < 3:
			cells = append(cells, cell{s: " ", w: 1})
		case wide && r == 3:
			cells = append(cells, cell{s: "中", w: 2})
		case wide && r == 4:
			cells = append(cells, cell{s: "\u200b", w: 0})
		default:
			cells = append(cells, cell{s: "x", w: 1})
		}
	}
	return cells
}

// TestWrapCountIsTheWordWrapsLineCount holds the count from a line's measure to wrapWords on
// the cells themselves, at every width, and requires an answer whenever every cell is one
// column wide.
func TestWrapCountIsTheWordWrapsLineCount(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := range 3000 {
		wide := n%2 == 1
		cells := randomCells(rng, rng.Intn(60), wide)
		if n%5 == 0 { // words and runs of spaces longer than a byte tells
			cells = slices.Concat(cells, slices.Repeat([]cell{{s: "x", w: 1}}, 40+rng.Intn(300)), slices.Repeat([]cell{{s: " ", w: 1}}, rng.Intn(300)), cells)
		}
		item, _, ok := nextItem(appendWordsItem(nil, cells, new([]byte)))
		if !ok {
			t.Fatalf("%d cells were not measured", len(cells))
		}
		toks := decodeWords(item, nil)
		for avail := 0; avail <= 45; avail++ {
			got, ok := wrapCount(toks, avail)
			if !ok {
				if !wide {
					t.Fatalf("no count for one-column cells %q at %d", cellText(cells), avail)
				}
				continue
			}
			if want := len(wrapWords(cells, avail)); got != want {
				t.Fatalf("%q at %d: counted %d lines, wrapWords draws %d", cellText(cells), avail, got, want)
			}
		}
	}
}

func cellText(cells []cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.s)
	}
	return b.String()
}

// FuzzWrapCount holds the count from a measure to wrapWords for any line of cells.
func FuzzWrapCount(f *testing.F) {
	f.Add([]byte("ab  cde f"), uint8(3))
	f.Add([]byte(" a\x00bb   ccc"), uint8(1))
	f.Fuzz(func(t *testing.T, shape []byte, avail uint8) {
		var cells []cell
		for _, c := range shape {
			switch c % 4 {
			case 0:
				cells = append(cells, cell{s: " ", w: 1})
			case 1:
				cells = append(cells, cell{s: "中", w: 2})
			case 2:
				cells = append(cells, cell{s: "\u200b", w: 0})
			default:
				cells = append(cells, cell{s: "x", w: 1})
			}
		}
		item, _, ok := nextItem(appendWordsItem(nil, cells, new([]byte)))
		if !ok {
			t.Fatalf("%q was not measured", cellText(cells))
		}
		if got, ok := wrapCount(decodeWords(item, nil), int(avail%40)); ok && got != len(wrapWords(cells, int(avail%40))) {
			t.Fatalf("%q at %d: counted %d, drawn %d", cellText(cells), avail%40, got, len(wrapWords(cells, int(avail%40))))
		}
	})
}

// resizeDocs are long documents of every block kind, tables too wide for a narrow width among
// them, so that a page starts inside code, a list, a quote or a table.
func resizeDocs() []string {
	docs := slices.Clone(stabilityDocs)
	docs = append(docs, strings.Join(stabilityDocs, "\n"), strings.Repeat(strings.Join(stabilityDocs, ""), 3),
		"| a | b | c | d | e | f | g | h |\n|---|---|---|---|---|---|---|---|\n"+strings.Repeat("| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\n", 40)+"after\n",
		"```python\n\"\"\"a string\n"+strings.Repeat("that goes on for a long while\n", 40)+"\"\"\"\nx = 1\n```\n"+strings.Repeat("tail line\n", 20))
	var long strings.Builder
	for i := 0; long.Len() < 20<<10; i++ {
		long.WriteString(replyText(i) + "\n\n")
	}
	return append(docs, long.String())
}

// TestAnotherWidthCountsThenDrawsWhatAFreshDocumentDraws: a document drawn at one width and
// then updated at another has, row for row, what a document drawn only at the second width
// has, whether it is finished or still streaming, read from the top or from the tail, and back
// at the first width too.
func TestAnotherWidthCountsThenDrawsWhatAFreshDocumentDraws(t *testing.T) {
	pal := NewPalette(Dark())
	for n, text := range resizeDocs() {
		for _, streaming := range []bool{false, true} {
			for _, widths := range [][]int{{80, 30}, {30, 120}, {120, 12}, {12, 60, 80}} {
				var d Doc
				for step, w := range widths {
					m := NewRenderer(pal, w, DefaultMeasure)
					runs := d.Update(m, text, streaming)
					var fresh Doc
					want := flat(docRuns(&fresh, NewRenderer(pal, w, DefaultMeasure), text, streaming))
					got := make([]string, 0, len(want))
					if step%2 == 1 { // read the tail first, as a window following it does
						last := runs[0].Len() - 1
						if last >= 0 {
							runs[0].At(last)
						}
					}
					for _, r := range runs {
						got = append(got, linesSlice(r)...)
					}
					if !streaming && !slices.Equal(want, drawAll(NewRenderer(pal, w, DefaultMeasure), text)) {
						t.Fatalf("doc %d at %d: a fresh document does not draw what drawing it whole does", n, w)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("doc %d streaming %v widths %v, at %d: %d rows\n%q\nwant %d\n%q", n, streaming, widths, w, len(got), got, len(want), want)
					}
				}
			}
		}
	}
}

// TestStreamingOnAtAnotherWidth: lines completed after a resize join the document as they
// would have had it been drawn at that width all along.
func TestStreamingOnAtAnotherWidth(t *testing.T) {
	pal := NewPalette(Dark())
	text := resizeDocs()[len(stabilityDocs)+1]
	var d Doc
	w := 70
	for cut := 0; cut <= len(text); cut += 97 {
		if cut%3 == 0 {
			w = 150 - w
		}
		m := NewRenderer(pal, w, DefaultMeasure)
		got := flat(docRuns(&d, m, text[:cut], true))
		var fresh Doc
		if want := flat(docRuns(&fresh, m, text[:cut], true)); !slices.Equal(got, want) {
			t.Fatalf("cut %d at %d:\n%q\nwant\n%q", cut, w, got, want)
		}
	}
}

// FuzzResize holds a document drawn at one width and then another to a document drawn only
// at the second, for any text (repeated so that it spans pages).
func FuzzResize(f *testing.F) {
	for _, d := range stabilityDocs {
		f.Add(d, uint8(40), uint8(13), uint8(3))
	}
	pal := NewPalette(Dark())
	f.Fuzz(func(t *testing.T, text string, w1, w2, times uint8) {
		if len(text) > 2000 {
			return
		}
		text = strings.Repeat(text, 1+int(times)%8)
		streaming := times&8 != 0
		var d Doc
		docRuns(&d, NewRenderer(pal, 1+int(w1)%130, DefaultMeasure), text, streaming)
		m := NewRenderer(pal, 1+int(w2)%130, DefaultMeasure)
		var fresh Doc
		got, want := flat(docRuns(&d, m, text, streaming)), flat(docRuns(&fresh, m, text, streaming))
		if !streaming {
			want = drawAll(m, text)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("resized from %d to %d:\n%q\nwant\n%q", 1+int(w1)%130, m.Width, got, want)
		}
	})
}

// drawAll draws finished text line by line from its start: what a document must show.
func drawAll(m *Renderer, text string) []string {
	var st blockState
	var b rows.Builder
	for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		m.line(&st, safe.Text(line), true, &b)
	}
	m.flush(&st, &b)
	return linesSlice(b.Compact())
}

// TestALongReplyLetsGoOfItsEarlyRows: a reply far longer than the rows it keeps drawn still
// shows every row as drawing it whole does, at its width and at another.
func TestALongReplyLetsGoOfItsEarlyRows(t *testing.T) {
	pal := NewPalette(Dark())
	var sb strings.Builder
	for i := 0; sb.Len() < 200<<10; i++ {
		sb.WriteString(replyText(i) + "\n\n")
	}
	text := sb.String()
	var d Doc
	for _, w := range []int{100, 47} {
		m := NewRenderer(pal, w, DefaultMeasure)
		for pos := 0; pos < len(text); pos += 4 << 10 {
			d.Update(m, text[:pos], true)
		}
		got := flat(docRuns(&d, m, text, false))
		if d.lay.tailPage == 0 {
			t.Fatalf("at %d: the rows of all %d pages are kept drawn", w, len(d.lay.pages))
		}
		if want := drawAll(NewRenderer(pal, w, DefaultMeasure), text); !slices.Equal(got, want) {
			t.Fatalf("at %d: %d rows, drawing it whole gives %d", w, len(got), len(want))
		}
	}
}

func TestFewerLines(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want bool
	}{{"", 1, true}, {"a", 1, true}, {"a\n", 1, false}, {"a\nb\n", 3, true}, {"a\nb\nc\n", 3, false}, {"\n\n\n\n", 3, false}} {
		if got := fewerLines(tt.s, tt.n); got != tt.want {
			t.Errorf("fewerLines(%q, %d) = %v", tt.s, tt.n, got)
		}
	}
}

// TestPagesThatStartAlikeShareTheirState: a reply of many short lines keeps one block state
// for all the pages that start in it, at its width and at another, so a page costs a few
// bytes, not a block state.
func TestPagesThatStartAlikeShareTheirState(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		sb.WriteString("word word word\n")
	}
	text := sb.String()
	pal := NewPalette(Dark())
	var d Doc
	for _, w := range []int{100, 47} {
		m := NewRenderer(pal, w, DefaultMeasure)
		for pos := 0; pos < len(text); pos += 4 << 10 {
			d.Update(m, text[:pos], true)
		}
		d.Update(m, text, false)
		if pages, starts := len(d.lay.pages), len(d.lay.starts); pages < 1000 || starts > 2 {
			t.Fatalf("at %d: %d pages keep %d start states", w, pages, starts)
		}
	}
}
