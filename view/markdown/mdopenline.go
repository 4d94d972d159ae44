package markdown

import (
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// openLine is the partial line's incremental wrap: lines committed so far, and where its
// uncommitted text starts. The committed lines are counted and marked (mdmarks.go) and kept
// drawn from the last mark on; those before are drawn again, a block at a time, when read.
type openLine struct {
	at     int   // the line's offset in the text; -1 for none
	key    shape // its shape; a change starts over
	done   *markedWrap
	recent rows.Builder // the committed lines from done's last mark on
	drawn  *drawnBlocks // shared by the runs each update returns: committed lines never change
	grow   growingWrap
}

// growingWrap is the incremental wrap of a growing text (a partial line, a table's growing
// cell): where parsing resumes before its uncommitted display lines, the parser's state there,
// and how many cells before them it draws (they may start inside a link, where it cannot
// resume).
type growingWrap struct {
	resume int // offset in the text where parsing resumes
	st     inlineState
	skip   int    // the cells parsing from resume draws before the first uncommitted line
	cells  []cell // scratch: the uncommitted text's cells, reused by each step
}

// newGrowingWrap is the wrap of a text whose inline content starts at offset from.
func newGrowingWrap(from int) growingWrap { return growingWrap{resume: from, st: noSpans()} }

// step parses text, the whole of it so far, from its first uncommitted byte in style base,
// wraps it at avail cells a line, hands the display lines later text cannot change to commit
// and the others to rest, in order, and moves past the committed ones. While commit runs,
// resume is still the offset the cells' ends count from.
func (g *growingWrap) step(text string, base mdStyle, avail int, commit, rest func(cells []cell, l cellLine)) {
	p := inlineParser{src: text[g.resume:], base: base, out: g.cells[:0]}
	p.run(0, g.st)
	g.cells = p.out
	cells := p.out[g.skip:]
	ls := wrapWords(cells, avail)
	n := committable(cells, ls)
	for _, l := range ls[:n+1] {
		commit(cells, l)
	}
	for _, l := range ls[n+1:] {
		rest(cells, l)
	}
	if n >= 0 {
		next := ls[n].next
		if k := resumableBefore(cells, next); k >= 0 {
			g.resume, g.st, g.skip = g.resume+cells[k].end, cells[k].st, next-1-k
		} else {
			g.skip += next
		}
	}
	clear(g.cells)                  // the scratch must not keep this step's copy of the text alive
	if cap(g.cells) > keptScratch { // a burst of text does not size the scratch for good
		g.cells = nil
	}
}

// update wraps the partial line s (drawn in shape sh) from its last committed display line,
// commits the lines later text cannot change, and returns them and the rest.
func (o *openLine) update(m *Renderer, at int, sh shape, s string) (committed, tail rows.Lines) {
	avail, firstP, restP := m.prefixes(sh)
	if o.at != at || o.key != sh {
		done := newMarkedWrap(avail, sh.base, false, sh.content)
		*o = openLine{at: at, key: sh, done: &done, drawn: &drawnBlocks{}, grow: newGrowingWrap(sh.content)}
	}
	first := o.done.lines == 0 // the line's first display line takes the first prefix
	row := func(cells []cell, l cellLine) string {
		pfx := restP
		if first {
			pfx, first = firstP, false
		}
		return m.paintRow(pfx, cells, l)
	}
	var t rows.Builder
	o.grow.step(s, sh.base, avail, func(cells []cell, l cellLine) {
		r := row(cells, l)
		if o.done.add(cells, l, o.grow.resume) {
			o.recent = rows.Builder{}
		} else {
			o.recent.Add(r)
		}
	}, func(cells []cell, l cellLine) {
		t.Add(row(cells, l))
	})
	if o.done.lines == 0 {
		return rows.Lines{}, t.Snapshot()
	}
	src := &openLineRows{m: m, s: s, first: firstP, rest: restP, done: o.done, n: o.done.lines,
		recent: o.recent.Snapshot(), drawn: o.drawn}
	return rows.FromSource(src, src.n), t.Snapshot()
}

// openLineRows are a partial line's committed display lines as one update left them.
type openLineRows struct {
	m           *Renderer
	s           string // the line so far
	first, rest string
	done        *markedWrap
	n           int        // committed lines
	recent      rows.Lines // lines n-recent.Len().. drawn
	drawn       *drawnBlocks
}

// Row is committed line j, as the line drawn whole draws it.
func (r *openLineRows) Row(j int) string {
	if from := r.n - r.recent.Len(); j >= from {
		return r.recent.At(j - from)
	}
	return r.m.prefixedRow(r.drawn, r.done, func() string { return r.s }, r.first, r.rest, r.n, j)
}

func (r *openLineRows) AppendRows(dst []string, lo, hi int) []string {
	return appendRows(dst, lo, min(hi, r.n), r.Row)
}

func (r *openLineRows) Size() int {
	return int(unsafe.Sizeof(*r)) + r.recent.Size() + r.done.size() + r.drawn.size()
}

// committable is the last of a partial line's display lines ls (of cells) that later text
// cannot change, -1 for none: not the last line, which grows, nor the one before it, which
// ends where the last begins, nor one that holds or comes just before provisional cells.
func committable(cells []cell, ls []cellLine) int {
	limit := len(ls) - 2
	for i, l := range ls {
		if hasProvisional(cells[l.start:l.next]) {
			return max(-1, min(limit, i-2))
		}
	}
	return max(-1, limit)
}

func hasProvisional(cells []cell) bool {
	for _, c := range cells {
		if c.prov {
			return true
		}
	}
	return false
}
