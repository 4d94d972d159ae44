package markdown

import (
	"strings"
	"unicode"

	"github.com/phasechat/phasechat/view/rows"
)

// tableLayout is a table's columns, decided once its delimiter row is complete.
type tableLayout struct {
	widths []int  // what each column's text wraps at
	rule   []int  // the border's width over each column (the last column's text may be wider)
	align  []byte // 'l', 'c' or 'r'
}

const (
	tableSep      = " │ "
	minTableShare = 16 // a column is at least this wide (or its share of the measure)
)

// planTable decides a table's columns from its header and delimiter rows, or returns nil when
// delim is no delimiter row for header. Rows that come later cannot change the widths (the
// lines above them are on screen), so each column gets what its header and its delimiter's
// dashes ask for, and at least minTableShare cells or its fair share of the measure, so short
// headers over long values do not wrap them a word a line; the last column, drawn unpadded,
// may use what the others leave. Widths shrink, widest first, to fit the measure.
func (m *Renderer) planTable(header, delim string) *tableLayout {
	hs, ds := splitRow(header), splitRow(delim)
	if len(ds) != len(hs) || len(hs) == 0 || !isRow(delim) {
		return nil
	}
	t := &tableLayout{widths: make([]int, len(hs)), align: make([]byte, len(hs))}
	for i, d := range ds {
		d = strings.TrimSpace(d)
		dashes := strings.Trim(d, ":")
		if dashes == "" || strings.Trim(dashes, "-") != "" {
			return nil
		}
		switch {
		case len(d) > 1 && d[0] == ':' && d[len(d)-1] == ':':
			t.align[i] = 'c'
		case d[len(d)-1] == ':':
			t.align[i] = 'r'
		default:
			t.align[i] = 'l'
		}
		t.widths[i] = max(cellsWidth(parseLine(strings.TrimSpace(hs[i]), mdTableHeader, true)), len(dashes))
	}
	n := len(hs)
	avail := m.text - len([]rune(tableSep))*(n-1)
	if avail < n {
		return nil
	}
	share := min(minTableShare, avail/n)
	sum := 0
	for i := range t.widths {
		t.widths[i] = max(t.widths[i], share)
		sum += t.widths[i]
	}
	for sum > avail {
		widest := 0
		for i, w := range t.widths {
			if w > t.widths[widest] {
				widest = i
			}
		}
		t.widths[widest]--
		sum--
	}
	t.rule = append([]int(nil), t.widths...)
	if t.align[n-1] == 'l' {
		t.widths[n-1] += avail - sum
	}
	return t
}

// row draws a table row, each cell wrapped inside its column. A long complete row is held as
// what draws it, its display lines drawn when read (mdrowlong.go).
func (m *Renderer) row(t *tableLayout, s string, base mdStyle, final bool, out *rows.Builder) {
	if final && len(s) >= longLine {
		r := m.longRow(t, s, base)
		out.AddSource(r, r.n)
		return
	}
	m.drawRow(t, s, base, final, out)
}

// drawRow is row, every display line drawn at once.
func (m *Renderer) drawRow(t *tableLayout, s string, base mdStyle, final bool, out *rows.Builder) {
	cells := splitRow(s)
	cols := make([][]cell, len(t.widths))
	lines := make([][]cellLine, len(t.widths))
	height := 1
	for i := range t.widths {
		if i < len(cells) {
			cols[i] = parseLine(strings.TrimSpace(cells[i]), base, final)
		}
		lines[i] = wrapWords(cols[i], t.widths[i])
		height = max(height, len(lines[i]))
	}
	for r := range height {
		out.Add(m.tableLine(t, func(i int) part {
			if r < len(lines[i]) {
				l := lines[i][r]
				return partOf(m, cols[i], l)
			}
			return partOf(m, nil, cellLine{})
		}))
	}
}

// tableLine is a display line of a table row that shows part(i) in column i.
func (m *Renderer) tableLine(t *tableLayout, part func(i int) part) string {
	sep := m.pal.paint(tableSep, mdRule)
	var b strings.Builder
	b.WriteString(m.margin)
	for i, w := range t.widths {
		if i > 0 {
			b.WriteString(sep)
		}
		p := part(i)
		pad := max(0, w-p.w)
		writeAligned(&b, p.s, t.align[i], pad, i < len(t.widths)-1)
	}
	return strings.TrimRight(b.String(), " ")
}

// border draws the line under a table's header.
func (m *Renderer) border(t *tableLayout, out *rows.Builder) {
	parts := make([]string, len(t.rule))
	for i, w := range t.rule {
		parts[i] = strings.Repeat("─", w)
	}
	out.Add(m.margin + m.pal.paint(strings.Join(parts, "─┼─"), mdRule))
}

// isRow reports whether s is a table row: it starts with '|' after at most three spaces.
func isRow(s string) bool {
	indent, rest := leading(s)
	return indent <= 3 && rest != "" && rest[0] == '|'
}

// delimiterSoFar reports whether s, a line still streaming, can still become a delimiter row.
func delimiterSoFar(s string) bool {
	return isRow(s) && strings.Trim(s, " |:-") == ""
}

// splitRow cuts a row into its cells at each '|' not escaped with a backslash; the pipes
// before the first and after the last cell are dropped.
func splitRow(s string) []string {
	var out []string
	for _, c := range cellSpans(s) {
		out = append(out, s[c.from:c.to])
	}
	return out
}

// span is s[from:to] of a string s.
type span struct{ from, to int }

// cellSpans are where splitRow's cells are in s.
func cellSpans(s string) []span {
	start := len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace))
	if start < len(s) && s[start] == '|' {
		start++
	}
	end := start + bodyEnd(s[start:])
	pipes, _ := scanPipes(s[:end], start, nil)
	var out []span
	from := start
	for _, p := range pipes {
		out = append(out, span{from, p})
		from = p + 1
	}
	return append(out, span{from, end})
}

// bodyEnd is where the cells of a row end in b, its text after the opening '|': before the
// spaces after them and a last unescaped '|'.
func bodyEnd(b string) int {
	end := len(strings.TrimRightFunc(b, unicode.IsSpace))
	if end > 0 && b[end-1] == '|' && (end < 2 || b[end-2] != '\\') {
		end--
	}
	return end
}

// scanPipes appends to pipes the offsets of the '|'s of s from i on, those a '\' does not
// escape, and returns them and the offset of the next byte to read (past one a '\' escapes).
func scanPipes(s string, i int, pipes []int) ([]int, int) {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			pipes = append(pipes, i)
		}
	}
	return pipes, i
}

// writeAligned writes a cell's text in its column: pad spaces shared out by the column's
// alignment ('r' all before, 'c' half before, else all after), the ones after it left out in
// the last column.
func writeAligned(b *strings.Builder, text string, align byte, pad int, notLast bool) {
	left := 0
	switch align {
	case 'r':
		left = pad
	case 'c':
		left = pad / 2
	}
	b.WriteString(strings.Repeat(" ", left))
	b.WriteString(text)
	if notLast {
		b.WriteString(strings.Repeat(" ", pad-left))
	}
}
