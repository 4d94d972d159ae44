package markdown

import (
	"strings"
	"unsafe"

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
		marks := len(o.done.marks)
		r := row(cells, l)
		if o.done.add(nil, cells, l, o.grow.resume); len(o.done.marks) > marks {
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
	return r.drawn.row(j, r.n, func(lo, hi int, out *rows.Builder) {
		for j := lo; j < hi; j++ {
			pfx := r.rest
			if j == 0 {
				pfx = r.first
			}
			out.Add(strings.TrimRight(r.m.margin+pfx+r.done.at(r.m, r.s, r.n, j).s, " "))
		}
	})
}

func (r *openLineRows) AppendRows(dst []string, lo, hi int) []string {
	for j := lo; j < min(hi, r.n); j++ {
		dst = append(dst, r.Row(j))
	}
	return dst
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
