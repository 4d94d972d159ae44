package markdown

import (
	"sort"
	"strings"
	"unicode"
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// A complete table row whose text is long (longLine bytes or more) is not drawn when it
// completes: its drawing, every column's display lines padded and joined, costs more than its
// text. It is held as where its text can be read again, and for each cell how many display
// lines it wraps into and, about every rowBlock of them, where parsing and wrapping can resume
// at the start of one. Its display lines are drawn a block of rowBlock at a time when read, and
// the last blocks read are kept, so a window on the row costs a block or two per frame. The
// drawing is the one drawRow makes of the whole row.

// rowBlock is how many display lines of a long row are drawn at once.
const rowBlock = 64

// longRow is a long complete table row, drawn on demand.
type longRow struct {
	m    *Renderer
	t    *tableLayout
	base mdStyle
	ref  textRef // where the row's text is read again; none when own holds it
	own  string
	cols []rowColumn
	n    int // display lines
	last [2]rowBlockRows
}

// textRef is text[from:to] of a layout's document, whose text only grows; l nil for none.
type textRef struct {
	l        *mdLayout
	from, to int
}

// rowColumn is a cell of a long row: its text, row[from:to], and how it wraps.
type rowColumn struct {
	from, to int
	literal  []int32   // the openers its final parse draws as literal text
	lines    int       // display lines
	marks    []rowMark // where display lines start that parsing resumes at, in order
}

// rowMark is the start of display line line of a cell, where parsing resumes at offset at of
// its text in state st.
type rowMark struct {
	line, at int32
	st       inlineState
}

// rowBlockRows is block b of a long row's display lines, drawn.
type rowBlockRows struct {
	b    int
	rows rows.Lines
	ok   bool
}

// longRow measures the complete row s (sanitised), from m.at when it is that text.
func (m *Renderer) longRow(t *tableLayout, s string, base mdStyle) *longRow {
	r := &longRow{m: m, t: t, base: base, own: s}
	if a := m.at; a.l != nil && a.to-a.from == len(s) && a.l.src[a.from:a.to] == s {
		r.ref, r.own = a, ""
	}
	spans := cellSpans(s)
	r.cols = make([]rowColumn, len(t.widths))
	r.n = 1
	for i, w := range t.widths {
		c := &r.cols[i]
		if i < len(spans) {
			c.from, c.to = trimmedSpan(s, spans[i])
		}
		c.measure(s[c.from:c.to], base, w)
		r.n = max(r.n, c.lines)
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

// measure counts the display lines of a cell's text wrapped at width, as a final line, and
// marks where they can be resumed, holding a chunk of cells at a time.
func (c *rowColumn) measure(text string, base mdStyle, width int) {
	p := inlineParser{src: text, base: base, final: true}
	for pass := range 8 {
		c.marks, c.lines = append(c.marks[:0], rowMark{st: noSpans()}), 0
		p.out = p.out[:0]
		st := wrapFrom(&p, 0, noSpans(), width, longLineChunk, func(cells []cell, l cellLine) bool {
			c.lines++
			last := c.marks[len(c.marks)-1]
			if n := l.next; c.lines-int(last.line) >= rowBlock && n > l.start && cells[n-1].end >= 0 {
				c.marks = append(c.marks, rowMark{line: int32(c.lines), at: int32(cells[n-1].end), st: cells[n-1].st})
			}
			return true
		})
		open := spanOpeners(st)
		if len(open) == 0 || pass == 7 {
			break
		}
		p.literal = append(p.literal, open...)
	}
	c.literal = p.literal
	c.marks = c.marks[:len(c.marks):len(c.marks)]
}

// text is the row's text.
func (r *longRow) text() string {
	if r.ref.l != nil {
		return r.ref.l.src[r.ref.from:r.ref.to]
	}
	return r.own
}

// block is display lines b*rowBlock.. of the row, drawn.
func (r *longRow) block(b int) rows.Lines {
	if r.last[0].ok && r.last[0].b == b {
		return r.last[0].rows
	}
	if r.last[1].ok && r.last[1].b == b {
		r.last[0], r.last[1] = r.last[1], r.last[0]
		return r.last[0].rows
	}
	lo, hi := b*rowBlock, min(r.n, (b+1)*rowBlock)
	text := r.text()
	parts := make([][]part, len(r.cols))
	for i := range r.cols {
		c := &r.cols[i]
		if lo >= c.lines {
			continue
		}
		k := sort.Search(len(c.marks), func(k int) bool { return int(c.marks[k].line) > lo }) - 1
		mk := c.marks[k]
		p := inlineParser{src: text[c.from:c.to], base: r.base, final: true, literal: c.literal}
		line := int(mk.line)
		wrapFrom(&p, int(mk.at), mk.st, r.t.widths[i], longLineChunk/4, func(cells []cell, l cellLine) bool {
			if line >= lo {
				parts[i] = append(parts[i], partOf(r.m, cells, l))
			}
			line++
			return line < hi
		})
	}
	var out rows.Builder
	for j := range hi - lo {
		out.Add(r.m.tableLine(r.t, func(i int) part {
			if j < len(parts[i]) {
				return parts[i][j]
			}
			return partOf(r.m, nil, cellLine{})
		}))
	}
	r.last[1], r.last[0] = r.last[0], rowBlockRows{b: b, rows: out.Compact(), ok: true}
	return r.last[0].rows
}

// Row is display line j, as drawRow draws it.
func (r *longRow) Row(j int) string { return r.block(j / rowBlock).At(j % rowBlock) }

func (r *longRow) AppendRows(dst []string, lo, hi int) []string {
	for j := lo; j < min(hi, r.n); j++ {
		dst = append(dst, r.Row(j))
	}
	return dst
}

func (r *longRow) Size() int {
	n := int(unsafe.Sizeof(*r)) + len(r.own) + r.last[0].rows.Size() + r.last[1].rows.Size()
	for _, c := range r.cols {
		n += int(unsafe.Sizeof(c)) + 4*cap(c.literal) + int(unsafe.Sizeof(rowMark{}))*cap(c.marks)
	}
	return n
}
