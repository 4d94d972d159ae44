package markdown

import (
	"strings"
	"unicode"
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// A complete table row whose text is long (longLine bytes or more) is not drawn when it
// completes: its drawing, every column's display lines padded and joined, costs more than its
// text. It is held as where its text can be read again and its cells' display lines as marks
// (mdcellwrap.go); its display lines are put together when read. The drawing is the one drawRow
// makes of the whole row.

// longRow is a long complete table row, drawn on demand.
type longRow struct {
	m    *Renderer
	t    *tableLayout
	ref  textRef // where the row's text is read again; none when own holds it
	own  string
	cols []rowCell // one per column, its text in the row
	n    int       // display lines
	last [2]rowsBlock
}

// rowsBlock is display lines b*rowBlock.. of a long row, drawn.
type rowsBlock struct {
	b    int
	rows rows.Lines
}

// textRef is text[from:to] of a layout's document, whose text only grows; l nil for none.
type textRef struct {
	l        *mdLayout
	from, to int
}

// longRow measures the complete row s (sanitised), read again from m.at when it is that text.
func (m *Renderer) longRow(t *tableLayout, s string, base mdStyle) *longRow {
	r := &longRow{m: m, t: t, own: s}
	if a := m.at; a.l != nil && a.to-a.from == len(s) && a.l.src[a.from:a.to] == s {
		r.ref, r.own = a, ""
	}
	spans := cellSpans(s)
	r.cols = make([]rowCell, len(t.widths))
	r.n = 1
	for i, w := range t.widths {
		c := &r.cols[i]
		if i < len(spans) {
			c.from, c.to = trimmedSpan(s, spans[i])
		}
		c.wrap = measuredCell(s[c.from:c.to], w, base, true, longLineChunk)
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

// text is the row's text.
func (r *longRow) text() string {
	if r.ref.l != nil {
		return r.ref.l.src[r.ref.from:r.ref.to]
	}
	return r.own
}

// Row is display line j, as drawRow draws it: the last two blocks of rowBlock lines read are
// kept drawn, so a window that does not move costs no drawing.
func (r *longRow) Row(j int) string {
	b := j / rowBlock
	for k, blk := range r.last {
		if blk.rows.Len() > 0 && blk.b == b {
			if k > 0 {
				r.last[0], r.last[k] = r.last[k], r.last[0]
			}
			return blk.rows.At(j - b*rowBlock)
		}
	}
	s := r.text()
	var out rows.Builder
	for j := b * rowBlock; j < min(r.n, (b+1)*rowBlock); j++ {
		out.Add(r.m.tableLine(r.t, func(i int) part {
			c := &r.cols[i]
			return c.wrap.at(r.m, s[c.from:c.to], j)
		}))
	}
	r.last[1], r.last[0] = r.last[0], rowsBlock{b: b, rows: out.Compact()}
	return r.last[0].rows.At(j - b*rowBlock)
}

func (r *longRow) AppendRows(dst []string, lo, hi int) []string {
	for j := lo; j < min(hi, r.n); j++ {
		dst = append(dst, r.Row(j))
	}
	return dst
}

func (r *longRow) Size() int {
	n := int(unsafe.Sizeof(*r)) + len(r.own) + r.last[0].rows.Size() + r.last[1].rows.Size()
	for i := range r.cols {
		n += r.cols[i].wrap.size()
	}
	return n
}
