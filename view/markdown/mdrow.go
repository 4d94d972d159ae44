package markdown

import (
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// A table row still streaming is drawn incrementally, so that a long row costs time in
// proportion to its text: the last cell grows and is wrapped as an open line is, from its
// last committed display line; when the '|' after it comes it is complete, and is parsed and
// wrapped once more, whole, and measured (its open state is let go). Its cells' display lines
// are kept as marks (mdmarks.go), and the row's display lines are put together from the
// columns' parts when they are read. The drawing is the one m.row makes of the whole partial
// row.

// part is one display line of a cell: its painted text and its width.
type part struct {
	s string
	w int
}

// openRow is the partial row of a table being drawn.
type openRow struct {
	at    int // the row's offset in the text; -1 for none
	t     *tableLayout
	body  int   // where the row's text after its opening '|' starts
	scan  int   // body offset of the next byte to read for a '|' (past one a '\' escapes)
	pipes []int // body offsets of the '|'s between cells, in order
	cols  []rowCell
	cell  openCell // the growing cell's column, when it is one of the table's
}

// rowCell is a complete cell of a row: its text, at from..to of the row's text (or body), and
// its display lines.
type rowCell struct {
	from, to int
	wrap     markedWrap
}

// update draws the partial row s, at offset at of the text, in table t.
func (o *openRow) update(m *Renderer, at int, t *tableLayout, s string) rows.Lines {
	if o.at != at || o.t != t {
		_, rest := leading(s)
		*o = openRow{at: at, t: t, body: len(s) - len(rest) + 1}
	}
	b := s[o.body:]
	o.pipes, o.scan = scanPipes(b, o.scan, o.pipes)
	end := bodyEnd(b)
	complete := len(o.pipes)
	for complete > 0 && o.pipes[complete-1] >= end {
		complete--
	}
	for k := len(o.cols); k < min(complete, len(t.widths)); k++ {
		from := 0
		if k > 0 {
			from = o.pipes[k-1] + 1
		}
		c := rowCell{}
		c.from, c.to = trimmedSpan(b, span{from, o.pipes[k]})
		c.wrap = measuredWrap(b[c.from:c.to], t.widths[k], 0, false, longLineChunk)
		o.cols = append(o.cols, c)
		o.cell = openCell{}
	}
	src := &rowSource{m: m, t: t, body: b, cols: o.cols, open: -1}
	if complete < len(t.widths) {
		from := 0
		if complete > 0 {
			from = o.pipes[complete-1] + 1
		}
		src.open = complete
		src.grow.from, src.grow.to = trimmedSpan(b, span{from, max(from, end)})
		src.tail = o.cell.update(m, b[src.grow.from:src.grow.to], t.widths[complete])
		src.grow.wrap, src.grow.lines, src.grow.recent = o.cell.done, o.cell.done.lines, o.cell.recent
	}
	src.n = 1
	for i := range t.widths {
		src.n = max(src.n, src.height(i))
	}
	return rows.FromSource(src, src.n)
}

// openCell is the growing cell of a row, wrapped as an open line is: its display lines
// committed so far, and where its uncommitted text starts. Each cell has its own done, which
// the sources of its earlier updates read: it only ever grows.
type openCell struct {
	done   *markedWrap // nil before the cell's first update
	recent []part      // the committed lines from done's last mark on; earlier updates share it
	grow   growingWrap
}

// update wraps text, the cell so far, at width from its last committed display line, commits
// the lines later text cannot change, and returns the rest.
func (o *openCell) update(m *Renderer, text string, width int) (tail []part) {
	if o.done == nil {
		done := newMarkedWrap(width, 0, false, 0)
		o.done, o.grow = &done, newGrowingWrap(0)
	}
	o.grow.step(text, 0, width, func(cells []cell, l cellLine) {
		if o.done.add(cells, l, o.grow.resume) {
			o.recent = nil
		} else {
			o.recent = append(o.recent, partOf(m, cells, l))
		}
	}, func(cells []cell, l cellLine) {
		tail = append(tail, partOf(m, cells, l))
	})
	return tail
}

func partOf(m *Renderer, cells []cell, l cellLine) part {
	c := cells[l.start:l.stop]
	return part{s: paintCells(m.pal, c), w: cellsWidth(c)}
}

// rowSource is a partial row as one update left it: its display lines are put together
// when read.
type rowSource struct {
	m    *Renderer
	t    *tableLayout
	body string    // the row's text after its opening '|', so far
	cols []rowCell // the complete cells
	open int       // the growing cell's column; -1 when it is none of the table's
	grow struct {  // the growing cell: its text in body, its committed lines, then the rest
		from, to int
		wrap     *markedWrap // counted lines of body[from:to] then; it may have counted more since
		lines    int
		recent   []part // lines lines-len(recent).. drawn
	}
	tail []part
	n    int // display lines
}

// height is how many display lines column i has: one when it has no text yet.
func (r *rowSource) height(i int) int {
	switch {
	case i < len(r.cols):
		return r.cols[i].wrap.lines
	case i == r.open:
		return max(1, r.grow.lines+len(r.tail))
	}
	return 1
}

// at is column i's part of display line j.
func (r *rowSource) at(i, j int) part {
	switch {
	case i < len(r.cols):
		c := &r.cols[i]
		return c.wrap.at(r.m, r.body[c.from:c.to], c.wrap.lines, j)
	case i == r.open:
		if g := &r.grow; j < g.lines {
			if k := j - (g.lines - len(g.recent)); k >= 0 {
				return g.recent[k]
			}
			return g.wrap.at(r.m, r.body[g.from:g.to], g.lines, j)
		}
		if j -= r.grow.lines; j < len(r.tail) {
			return r.tail[j]
		}
	}
	return part{}
}

// Row is display line j, as m.row draws it.
func (r *rowSource) Row(j int) string {
	return r.m.tableLine(r.t, func(i int) part { return r.at(i, j) })
}

func (r *rowSource) AppendRows(dst []string, lo, hi int) []string {
	return appendRows(dst, lo, min(hi, r.n), r.Row)
}

func (r *rowSource) Size() int {
	n := int(unsafe.Sizeof(*r))
	for i := range r.cols {
		n += r.cols[i].wrap.size()
	}
	if r.grow.wrap != nil {
		n += r.grow.wrap.size() + partsSize(r.grow.recent)
	}
	return n + partsSize(r.tail)
}
