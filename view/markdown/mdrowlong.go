package markdown

import (
	"strings"
	"unicode"
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// A complete line whose text is long (longLine bytes or more) is not drawn when it completes:
// its drawing costs about its text again (a table row's, every column's display lines padded
// and joined, more). It is held as where its text can be read again and its display lines as
// marks (mdmarks.go); its display lines are put together when read, a block of rowBlock at
// a time, and the last two blocks are kept, so a window that does not move costs no drawing.
// The drawing is the one the line drawn whole at once has: drawRow's for a table row,
// wrappedLong's for text (mdtextlong.go).

// heldText is a complete line's text, or a part of it: where the document holds it, or, when
// sanitising changed it, the text itself.
type heldText struct {
	ref textRef
	own string
}

// textRef is text[from:to] of a layout's document, whose text only grows; l nil for none.
type textRef struct {
	l        *mdLayout
	from, to int
}

// hold is s[from:to] of the complete line s (sanitised) being drawn, read again from m.at when
// s is that text.
func (m *Renderer) hold(s string, from, to int) heldText {
	if a := m.at; a.l != nil && a.to-a.from == len(s) && a.l.src[a.from:a.to] == s {
		return heldText{ref: textRef{l: a.l, from: a.from + from, to: a.from + to}}
	}
	return heldText{own: s[from:to]}
}

func (h heldText) text() string {
	if h.ref.l != nil {
		return h.ref.l.src[h.ref.from:h.ref.to]
	}
	return h.own
}

// drawnBlocks are the last two blocks of rowBlock display lines a long line drew, newest first.
type drawnBlocks [2]struct {
	b    int
	rows rows.Lines
}

// row is display line j of n, from the block holding it, drawn with draw if it is not kept
// (or was kept when it had fewer lines).
func (d *drawnBlocks) row(j, n int, draw func(lo, hi int, out *rows.Builder)) string {
	b := j / rowBlock
	for k, blk := range d {
		if blk.rows.Len() > j-b*rowBlock && blk.b == b {
			if k > 0 {
				d[0], d[k] = d[k], d[0]
			}
			return blk.rows.At(j - b*rowBlock)
		}
	}
	var out rows.Builder
	draw(b*rowBlock, min(n, (b+1)*rowBlock), &out)
	d[1], d[0].b, d[0].rows = d[0], b, out.Compact()
	return d[0].rows.At(j - b*rowBlock)
}

func (d *drawnBlocks) size() int { return d[0].rows.Size() + d[1].rows.Size() }

// longRow is a long complete table row, drawn on demand.
type longRow struct {
	m     *Renderer
	t     *tableLayout
	text  heldText
	cols  []rowCell // one per column, its text in the row
	n     int       // display lines
	drawn drawnBlocks
}

// longRow measures the complete row s (sanitised).
func (m *Renderer) longRow(t *tableLayout, s string, base mdStyle) *longRow {
	r := &longRow{m: m, t: t, text: m.hold(s, 0, len(s))}
	spans := cellSpans(s)
	r.cols = make([]rowCell, len(t.widths))
	r.n = 1
	for i, w := range t.widths {
		c := &r.cols[i]
		if i < len(spans) {
			c.from, c.to = trimmedSpan(s, spans[i])
		}
		c.wrap = measuredWrap(s[c.from:c.to], w, base, true, longLineChunk)
		r.n = max(r.n, c.wrap.lines)
	}
	return r
}

// trimmedSpan is c without the spaces around its text in s.
func trimmedSpan(s string, c span) (from, to int) {
	cell := s[c.from:c.to]
	from = c.from + len(cell) - len(strings.TrimLeftFunc(cell, unicode.IsSpace))
	to = c.from + len(strings.TrimRightFunc(cell, unicode.IsSpace))
	return from, max(from, to)
}

// Row is display line j, as drawRow draws it.
func (r *longRow) Row(j int) string {
	return r.drawn.row(j, r.n, func(lo, hi int, out *rows.Builder) {
		s := r.text.text()
		for j := lo; j < hi; j++ {
			out.Add(r.m.tableLine(r.t, func(i int) part {
				c := &r.cols[i]
				return c.wrap.at(r.m, s[c.from:c.to], c.wrap.lines, j)
			}))
		}
	})
}

func (r *longRow) AppendRows(dst []string, lo, hi int) []string {
	return appendRows(dst, lo, min(hi, r.n), r.Row)
}

func (r *longRow) Size() int {
	n := int(unsafe.Sizeof(*r)) + len(r.text.own) + r.drawn.size()
	for i := range r.cols {
		n += r.cols[i].wrap.size()
	}
	return n
}
