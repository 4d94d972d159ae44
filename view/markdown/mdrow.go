package markdown

import (
	"strings"
	"unicode"
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// A table row still streaming is drawn incrementally, so that a long row costs time in
// proportion to its text: the last cell grows and is wrapped as an open line is, from its
// last committed display line; when the '|' after it comes it is complete, and is parsed and
// wrapped once more, whole, and kept (its open state is let go: a cell costs about twice its
// text to draw, never more); the row's display lines are put together from the columns'
// parts when they are read. The drawing is the one m.row makes of the whole partial row.

// part is one display line of a cell: its painted text and its width.
type part struct {
	s string
	w int
}

// column is a cell's display lines stored compactly: their painted text as a run of rows,
// and each one's width.
type column struct {
	rows   rows.Lines
	widths []uint16
}

func (c column) len() int { return len(c.widths) }

func (c column) at(j int) part { return part{s: c.rows.At(j), w: int(c.widths[j])} }

// columnBuilder appends a cell's display lines; a column taken with snapshot stays valid
// after later appends. It must not be copied after its first add.
type columnBuilder struct {
	rows   rows.Builder
	widths []uint16
}

func (b *columnBuilder) add(p part) {
	b.rows.Add(p.s)
	b.widths = append(b.widths, uint16(min(p.w, 1<<16-1)))
}

func (b *columnBuilder) snapshot() column {
	return column{rows: b.rows.Snapshot(), widths: b.widths[:len(b.widths):len(b.widths)]}
}

// openRow is the partial row of a table being drawn.
type openRow struct {
	at    int // the row's offset in the text; -1 for none
	t     *tableLayout
	body  int   // where the row's text after its opening '|' starts
	scan  int   // body offset of the next byte to read for a '|' (past one a '\' escapes)
	pipes []int // body offsets of the '|'s between cells, in order
	cols  []column
	cell  openCell // the growing cell's column, when it is one of the table's
	bytes int      // what the complete cells' columns hold
}

// update draws the partial row s, at offset at of the text, in table t.
func (o *openRow) update(m *Renderer, at int, t *tableLayout, s string) rows.Lines {
	if o.at != at || o.t != t {
		_, rest := leading(s)
		*o = openRow{at: at, t: t, body: len(s) - len(rest) + 1}
	}
	b := s[o.body:]
	i := o.scan
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '|':
			o.pipes = append(o.pipes, i)
		}
	}
	o.scan = i
	// splitRow's cells: the body without the spaces after it, nor a last unescaped '|'.
	end := len(strings.TrimRightFunc(b, unicode.IsSpace))
	if end > 0 && b[end-1] == '|' && (end < 2 || b[end-2] != '\\') {
		end--
	}
	complete := len(o.pipes)
	for complete > 0 && o.pipes[complete-1] >= end {
		complete--
	}
	for k := len(o.cols); k < min(complete, len(t.widths)); k++ {
		from := 0
		if k > 0 {
			from = o.pipes[k-1] + 1
		}
		o.cols = append(o.cols, m.cellParts(strings.TrimSpace(b[from:o.pipes[k]]), t.widths[k]))
		o.bytes += o.cols[k].size()
		o.cell = openCell{}
	}
	src := &rowSource{m: m, t: t, cols: o.cols, open: -1, bytes: o.bytes}
	if complete < len(t.widths) {
		from := 0
		if complete > 0 {
			from = o.pipes[complete-1] + 1
		}
		src.open = complete
		src.done, src.tail = o.cell.update(m, strings.TrimSpace(b[from:max(from, end)]), t.widths[complete])
		src.bytes += src.done.size()
	}
	src.n = 1
	for i := range t.widths {
		src.n = max(src.n, src.height(i))
	}
	return rows.FromSource(src, src.n)
}

// openCell is the growing cell of a row, wrapped as an open line is: its display lines
// committed so far, and where its uncommitted text starts.
type openCell struct {
	done   columnBuilder
	resume int // offset in the cell's text of the first uncommitted byte
	st     inlineState
	begun  bool
	cells  []cell // scratch: the uncommitted text's cells, reused by each update
}

// update wraps text, the cell so far, at width from its last committed display line, commits
// the lines later text cannot change, and returns them and the rest.
func (o *openCell) update(m *Renderer, text string, width int) (done column, tail []part) {
	if !o.begun {
		o.begun, o.st = true, noSpans()
	}
	p := inlineParser{src: text[o.resume:], out: o.cells[:0]}
	p.run(0, o.st)
	cells := p.out
	o.cells = cells
	ls := wrapWords(cells, width)
	commit := committable(cells, ls)
	for i := 0; i <= commit; i++ {
		o.done.add(partOf(m, cells, ls[i]))
	}
	for i := commit + 1; i < len(ls); i++ {
		tail = append(tail, partOf(m, cells, ls[i]))
	}
	if commit >= 0 {
		last := cells[ls[commit].next-1]
		o.resume += last.end
		o.st = last.st
	}
	clear(cells)                  // the scratch must not keep this update's copy of the cell alive
	if cap(cells) > keptScratch { // a burst of text does not size the scratch for good
		o.cells = nil
	}
	return o.done.snapshot(), tail
}

func partOf(m *Renderer, cells []cell, l cellLine) part {
	c := cells[l.start:l.stop]
	return part{s: paintCells(m.pal, c), w: cellsWidth(c)}
}

// cellParts is a complete cell of a partial row, text, wrapped at width: what m.row draws of
// it, holding about longLineChunk cells at a time.
func (m *Renderer) cellParts(text string, width int) column {
	return m.cellPartsChunked(text, width, longLineChunk)
}

// cellPartsChunked is cellParts holding about chunk cells at a time.
func (m *Renderer) cellPartsChunked(text string, width, chunk int) column {
	var out columnBuilder
	wrapChunked(&inlineParser{src: text}, width, chunk, func(cells []cell, l cellLine) {
		out.add(partOf(m, cells, l))
	})
	return out.snapshot()
}

// size is the memory c holds.
func (c column) size() int { return c.rows.Size() + 2*cap(c.widths) }

// rowSource is a partial row as one update left it: its display lines are put together
// when read.
type rowSource struct {
	m     *Renderer
	t     *tableLayout
	cols  []column // the complete cells' columns
	open  int      // the growing cell's column; -1 when it is none of the table's
	done  column   // the growing cell's committed display lines, then the rest
	tail  []part
	n     int // display lines
	bytes int
}

// height is how many display lines column i has: one when it has no text yet.
func (r *rowSource) height(i int) int {
	switch {
	case i < len(r.cols):
		return r.cols[i].len()
	case i == r.open:
		return max(1, r.done.len()+len(r.tail))
	}
	return 1
}

// at is column i's part of display line j.
func (r *rowSource) at(i, j int) part {
	switch {
	case i < len(r.cols):
		if j < r.cols[i].len() {
			return r.cols[i].at(j)
		}
	case i == r.open:
		if j < r.done.len() {
			return r.done.at(j)
		}
		if j -= r.done.len(); j < len(r.tail) {
			return r.tail[j]
		}
	}
	return part{}
}

// Row is display line j, as m.row draws it.
func (r *rowSource) Row(j int) string {
	t := r.t
	sep := r.m.pal.paint(tableSep, mdRule)
	var b strings.Builder
	b.WriteString(r.m.margin)
	for i, w := range t.widths {
		if i > 0 {
			b.WriteString(sep)
		}
		p := r.at(i, j)
		pad := max(0, w-p.w)
		writeAligned(&b, p.s, t.align[i], pad, i < len(t.widths)-1)
	}
	return strings.TrimRight(b.String(), " ")
}

func (r *rowSource) AppendRows(dst []string, lo, hi int) []string {
	for j := lo; j < min(hi, r.n); j++ {
		dst = append(dst, r.Row(j))
	}
	return dst
}

func (r *rowSource) Size() int {
	n := int(unsafe.Sizeof(*r)) + r.bytes + int(unsafe.Sizeof(column{}))*len(r.cols)
	for _, p := range r.tail {
		n += int(unsafe.Sizeof(part{})) + len(p.s)
	}
	return n
}
