package markdown

import (
	"strings"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// Doc draws one growing markdown text (a reply's text) a source line at a time. Each
// complete line is drawn once, from its own text and the state the lines before it left
// (blockState), and its display lines are kept: they never change as text is appended (the
// stability the block rules in mdblock.go are written for). What is not yet final is the open
// part: a table header waiting for its delimiter row, and the last, partial line, which is
// drawn with its final styling as it grows. A long partial line is wrapped incrementally: its
// display lines that later text cannot change are kept (openLine), and each update parses and
// wraps only the text after them, so a delta costs about its own size and a line or two, not
// the line, let alone the reply.
//
// Every byte is sanitised before it is parsed: complete lines with safe.Text, the partial line
// with a safe.Stream fed its new bytes (the same result, since safe.Text decides rune by rune),
// which copies the line only once a byte of it needs a stand-in.
// The only escapes drawn are the palette's SGR.
type Doc struct {
	src  string // the text last drawn; later text must extend it, or all restarts
	pal  *Palette
	scan int // text[:scan] is complete lines, laid out in lay
	st   blockState
	// Kept at every width: where each complete line ends, and its measure (mdmeasure.go).
	lineEnd []int32
	measBuf []byte  // every line's measure, back to back
	measEnd []int32 // where each line's measure ends in measBuf
	states  []codeState
	lay     *mdLayout // the complete lines at the renderer's width

	san     *safe.StreamView // the partial line text[scan:fed] sanitised: a view of it while it is clean
	fed     int
	open    openLine
	code    openCode
	row     openRow
	pre     rows.Builder // the open part before the partial line, drawn afresh per update
	out     []rows.Lines
	final   rows.Lines // the open part drawn as finished, once streaming has ended
	finalOf int        // len(src) final was drawn for; -1 for none
}

// update brings the document up to text and returns its display lines in runs: the complete
// lines, then the open part. streaming false means the text is finished: the last line is
// complete and a held table header is drawn as text.
//
// At another width the complete lines are counted from their measures, not drawn again: only
// the rows a window reads are drawn (mdpages.go).
func (d *Doc) Update(m *Renderer, text string, streaming bool) []rows.Lines {
	switch {
	case d.lay == nil || d.pal != m.pal || len(text) < len(d.src) || !strings.HasPrefix(text, d.src):
		*d = Doc{pal: m.pal, finalOf: -1, open: openLine{at: -1}, code: openCode{at: -1}, row: openRow{at: -1}, lay: &mdLayout{m: m}}
	case d.lay.m != m:
		d.relayout(m)
		d.finalOf = -1
		d.san, d.fed, d.open, d.code, d.row = nil, d.scan, openLine{at: -1}, openCode{at: -1}, openRow{at: -1}
	}
	seen := len(d.src) // text[d.scan:seen] is the open line as last seen: it has no line break
	d.src, d.lay.src = text, text
	// Many lines at once (a reply drawn for the first time, a long delta) are counted, not
	// drawn: a window draws the pages it reads.
	draw := true
	for first := true; ; first = false {
		from := max(d.scan, seen)
		nl := strings.IndexByte(text[from:], '\n')
		if nl < 0 {
			break
		}
		if first {
			draw = fewerLines(text[d.scan:], 2*PageLines)
		}
		d.addLine(m, from+nl, draw)
		d.scan = from + nl + 1
		d.san, d.fed, d.open, d.code, d.row = nil, d.scan, openLine{at: -1}, openCode{at: -1}, openRow{at: -1}
	}
	d.out = append(d.out[:0], d.lay.snapshot())
	if !streaming {
		if d.finalOf != len(text) {
			st := d.st
			var b rows.Builder
			if d.scan < len(text) {
				d.lay.drawLine(&st, d.scan, len(text), &b)
			}
			m.flush(&st, &b)
			d.final, d.finalOf = b.Compact(), len(text)
			// The finished drawing replaces the open part's: its incremental state, a copy of
			// the partial line and its rows, is let go.
			d.san, d.fed, d.open, d.code, d.row = nil, d.scan, openLine{at: -1}, openCode{at: -1}, openRow{at: -1}
			if d.lay.tailPage >= 0 {
				d.lay.tail.Shrink()
			}
		}
		return append(d.out, d.final)
	}
	if d.san == nil {
		d.san, d.fed = safe.NewStreamView(), d.scan
	}
	if d.fed < len(text) {
		d.san.Append(text[d.fed:])
		d.fed = len(text)
	}
	return d.openPart(m, d.san.View(text[d.scan:]))
}

// fewerLines reports whether s holds fewer than n line breaks, reading it only up to the nth.
func fewerLines(s string, n int) bool {
	for ; n > 0; n-- {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return true
		}
		s = s[i+1:]
	}
	return false
}

// openPart draws what follows the complete lines: a held table header and the partial line s.
func (d *Doc) openPart(m *Renderer, s string) []rows.Lines {
	st := d.st
	d.pre = rows.Builder{}
	if st.hasHeader {
		if delimiterSoFar(s) {
			if t := m.planTable(st.header, s); t != nil {
				m.gap(&st, &d.pre)
				m.row(t, st.header, mdTableHeader, true, &d.pre)
				m.border(t, &d.pre)
				return append(d.out, d.pre.Snapshot())
			}
		}
		m.flush(&st, &d.pre)
	}
	if s == "" {
		return append(d.out, d.pre.Snapshot())
	}
	if st.fence.open && !mayCloseFence(st.fence, s) && startsCode(st.fence, s) {
		committed, tail := d.code.update(m, d.scan, st.fence, s)
		return append(d.out, d.pre.Snapshot(), committed, tail)
	}
	if st.table != nil && isRow(s) && !st.fence.open && !isBlank(s) {
		m.gap(&st, &d.pre)
		return append(d.out, d.pre.Snapshot(), d.row.update(m, d.scan, st.table, s))
	}
	if st.fence.open || isBlank(s) || isRow(s) && len(st.list) == 0 {
		m.line(&st, s, false, &d.pre)
		return append(d.out, d.pre.Snapshot())
	}
	if indent, rest := leading(s); indent <= 3 || len(st.list) > 0 {
		if _, n, _ := fenceRun(rest); n > 0 {
			m.line(&st, s, false, &d.pre)
			return append(d.out, d.pre.Snapshot())
		}
	}
	st.table = nil
	sh := m.shape(&st, s)
	m.gap(&st, &d.pre)
	if sh.kind != shapeText {
		if sh.kind == shapeRule {
			d.pre.Add(m.margin + m.pal.paint(strings.Repeat("─", m.text), mdRule))
		} else {
			m.wrapped(sh, parseLine(s[sh.content:], sh.base, false), &d.pre)
		}
		return append(d.out, d.pre.Snapshot())
	}
	committed, tail := d.open.update(m, d.scan, sh, s)
	return append(d.out, d.pre.Snapshot(), committed, tail)
}

// openCode is the partial line of an open code block, drawn incrementally: the display lines
// committed so far, and the highlighted cells after them up to the last unit drawn, which may
// still grow (a word, a grapheme).
type openCode struct {
	at      int // the line's offset in the text; -1 for none
	pos     int // offset in the line where highlighting resumes
	st      codeState
	pending []cell // cells of the line after the committed display lines, before pos
	done    rows.Builder
	more    bool
}

func (o *openCode) update(m *Renderer, at int, f fenceBlock, s string) (committed, tail rows.Lines) {
	if o.at != at {
		*o = openCode{at: at, pos: len(s) - len(stripColumns(s, f.strip)), st: f.code}
	}
	h := highlighter{l: f.lang, st: o.st, out: o.pending, safe: o.pos, safeCells: len(o.pending), safeSt: o.st}
	h.run(s, o.pos)
	cells := h.out
	pad := strings.Repeat(" ", f.indent)
	avail, lead, cont := m.codeRows(f.indent, pad)
	ls := wrapHard(cells, avail)
	draw := func(b *rows.Builder, i int, l cellLine) {
		p := cont
		if i == 0 && !o.more {
			p = lead
		}
		b.Add(m.paintRow(p, cells, l))
	}
	commit := -1
	for i, l := range ls[:len(ls)-1] {
		if l.stop >= h.safeCells {
			break
		}
		draw(&o.done, i, l)
		commit = i
	}
	var t rows.Builder
	for i := commit + 1; i < len(ls); i++ {
		draw(&t, i, ls[i])
	}
	from := 0
	if commit >= 0 {
		from = ls[commit].stop
		o.more = true
	}
	o.pending = append([]cell(nil), cells[from:h.safeCells]...)
	o.pos, o.st = h.safe, h.safeSt
	return o.done.Snapshot(), t.Snapshot()
}

// mayCloseFence reports whether the partial line s could still become f's closing fence.
func mayCloseFence(f fenceBlock, s string) bool {
	indent, rest := leading(s)
	if indent > f.strip+3 {
		return false
	}
	c, _, info := fenceRun(rest)
	return rest == "" || c == f.char && isBlank(info)
}

// startsCode reports whether the partial line s has passed the indentation f strips.
func startsCode(f fenceBlock, s string) bool {
	return len(s)-len(stripColumns(s, f.strip)) == f.strip || strings.TrimLeft(s, " ") != ""
}
