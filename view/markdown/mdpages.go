package markdown

import (
	"sort"
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

const (
	// PageLines is how many complete source lines a page holds: the unit drawn on demand.
	PageLines = 16
	// TailPages is how many pages the rows drawn as lines complete hold at most: a long
	// reply keeps the drawing of its last pages, not of all of it.
	TailPages = 64
	// keptRows is how many of the rows before it a tail that starts again keeps drawn: more
	// than a tall window shows.
	keptRows = 256
)

// mdLayout is a document's complete lines at one renderer's width: every line counted, and
// the lines drawn in order from where drawing began (tail), or a page at a time when a row of
// an earlier page is first read. A page is drawn from the block state its first line starts
// in, which the count kept, so it draws exactly what drawing the whole document from its start
// draws there (the stability rule of docs/markdown.md), and its rows are the ones counted. A
// layout only grows (complete lines are added to its last page); another width gets another
// layout, so a lines value taken from one stays valid.
type mdLayout struct {
	m       *Renderer
	src     string  // the document's text, holding at least the layout's lines
	lineEnd []int32 // the offset of each complete line's line break
	pages   []mdPage
	// starts are the block states pages start in, each once for a run of pages that start
	// in the same state: most pages of a reply start in the same state.
	starts []blockState
	// own holds the drawing of the pages drawn on their own (pages in the tail are not).
	own  map[int]rows.Lines
	rows int
	// tail is every row from page tailPage's first on, drawn in order as lines complete;
	// tailPage is -1 while there is none (after a count), until a row of the last page is
	// read or a line is drawn.
	tail     rows.Builder
	tailPage int
	meas     int // bytes the document's measures hold, for size
	drawn    int // bytes the pages drawn on their own hold
}

// mdPage is a page of PageLines complete lines.
type mdPage struct {
	from  int   // its first row, counted from the document's first
	start int32 // the state its first line starts in: starts[start]
}

// addPage adds a page whose first line starts in st at row from.
func (l *mdLayout) addPage(st blockState, from int) {
	if n := len(l.starts); n == 0 || !sameBlockState(l.starts[n-1], st) {
		l.starts = append(l.starts, st)
	}
	l.pages = append(l.pages, mdPage{from: from, start: int32(len(l.starts) - 1)})
}

// sameBlockState is whether a and b draw the same: a list is replaced, never written in
// place, so equal items are the same list.
func sameBlockState(a, b blockState) bool {
	if a.drawn != b.drawn || a.blank != b.blank || a.fence != b.fence || a.table != b.table ||
		a.header != b.header || a.hasHeader != b.hasHeader || len(a.list) != len(b.list) {
		return false
	}
	for i := range a.list {
		if a.list[i] != b.list[i] {
			return false
		}
	}
	return true
}

// snapshot is the layout's rows so far.
func (l *mdLayout) snapshot() rows.Lines {
	if l.rows == 0 {
		return rows.Lines{}
	}
	return rows.FromSource(l, l.rows)
}

// line is complete line i of the document, sanitised.
func (l *mdLayout) line(i int) string {
	start, end := l.lineSpan(i)
	return safe.Text(l.src[start:end])
}

// lineSpan is where complete line i is in the document's text.
func (l *mdLayout) lineSpan(i int) (start, end int) {
	if i > 0 {
		start = int(l.lineEnd[i-1]) + 1
	}
	return start, int(l.lineEnd[i])
}

// drawLine draws the document's text[start:end], a complete line, in state st.
func (l *mdLayout) drawLine(st *blockState, start, end int, out *rows.Builder) {
	l.m.at = textRef{l: l, from: start, to: end}
	l.m.line(st, safe.Text(l.src[start:end]), true, out)
	l.m.at = textRef{}
}

// row is row i, drawing its page first if it is not drawn.
func (l *mdLayout) Row(i int) string {
	run, from := l.runAt(i)
	return run.At(i - from)
}

// appendRows appends rows lo..hi-1, finding their pages once.
func (l *mdLayout) AppendRows(dst []string, lo, hi int) []string {
	for i := lo; i < hi; {
		run, from := l.runAt(i)
		if i-from >= run.Len() { // past the rows counted: none to give
			break
		}
		for ; i < hi && i-from < run.Len(); i++ {
			dst = append(dst, run.At(i-from))
		}
	}
	return dst
}

// runAt is the drawn run holding row i and the row it starts at: the tail, or i's page,
// drawn first if it is not.
func (l *mdLayout) runAt(i int) (rows.Lines, int) {
	k := sort.Search(len(l.pages), func(k int) bool { return l.pages[k].from > i }) - 1
	if k == len(l.pages)-1 {
		l.drawTail()
	}
	if l.tailPage >= 0 && k >= l.tailPage {
		return l.tail.Snapshot(), l.pages[l.tailPage].from
	}
	p := l.pages[k]
	out, drawn := l.own[k]
	if !drawn {
		var b rows.Builder
		st := l.starts[p.start]
		for j := k * PageLines; j < (k+1)*PageLines; j++ {
			start, end := l.lineSpan(j)
			l.drawLine(&st, start, end, &b)
		}
		out = b.Compact()
		l.keep(k, out)
	}
	return out, p.from
}

// keep keeps out as page k's own drawing.
func (l *mdLayout) keep(k int, out rows.Lines) {
	if l.own == nil {
		l.own = map[int]rows.Lines{}
	}
	l.own[k] = out
	l.drawn += out.Size()
}

// keepPage keeps page k's rows, drawn in the tail, as the page's own drawing.
func (l *mdLayout) keepPage(k int) {
	tail, from := l.tail.Snapshot(), l.pages[l.tailPage].from
	var b rows.Builder
	b.AddRange(tail, l.pages[k].from-from, l.pages[k+1].from-from)
	l.keep(k, b.Compact())
}

// drawTail starts the tail at the last page, unless it is started.
func (l *mdLayout) drawTail() {
	if l.tailPage >= 0 || len(l.pages) == 0 {
		return
	}
	k := len(l.pages) - 1
	st := l.starts[l.pages[k].start]
	l.tail = rows.Builder{}
	for j := k * PageLines; j < len(l.lineEnd); j++ {
		start, end := l.lineSpan(j)
		l.drawLine(&st, start, end, &l.tail)
	}
	l.tailPage = k
}

// size is the memory the layout and the document's measures hold, for the cache budget.
func (l *mdLayout) Size() int {
	n := int(unsafe.Sizeof(*l)) + cap(l.pages)*int(unsafe.Sizeof(mdPage{})) +
		cap(l.starts)*int(unsafe.Sizeof(blockState{})) + l.meas + l.drawn
	if l.tailPage >= 0 {
		n += l.tail.Size()
	}
	return n
}

// addLine draws the document's next complete line, ending at offset end of d.src, into the
// tail, or only counts it (draw false: the tail, if any, is let go), and keeps its measure.
func (d *Doc) addLine(m *Renderer, end int, draw bool) {
	l := d.lay
	start := 0
	if n := len(d.lineEnd); n > 0 {
		start = int(d.lineEnd[n-1]) + 1
	}
	out, count := &l.tail, rows.NewCounter()
	switch {
	case draw:
		l.drawTail()
	case l.tailPage >= 0:
		l.tail, l.tailPage = rows.Builder{}, -1
		fallthrough
	default:
		out = &count
	}
	if len(d.lineEnd)%PageLines == 0 {
		l.addPage(d.st, l.rows)
		if k := len(l.pages) - 1; draw && (l.tailPage < 0 || k-l.tailPage >= TailPages) {
			// The rows before are let go, but for the last keptRows, which a window on the
			// tail shows: a window that scrolls further draws the pages it reaches.
			for j := k - 1; l.tailPage >= 0 && j >= l.tailPage && l.rows-l.pages[j+1].from < keptRows; j-- {
				l.keepPage(j)
			}
			l.tail, l.tailPage = rows.Builder{}, k
		}
	}
	before, size := out.Len(), out.Bytes()
	if !d.st.hasHeader && d.st.table == nil {
		m.rec, m.states = &d.measBuf, &d.states
	} else {
		d.measBuf = appendUnmeasured(d.measBuf)
	}
	l.drawLine(&d.st, start, end, out)
	if out.Bytes() > 2*size+bigLine {
		// A line that drew more than the rest of the tail lets its growth's spare room go;
		// the copy costs less than its drawing did.
		out.Shrink()
	}
	m.rec, m.states = nil, nil
	d.lineEnd = append(d.lineEnd, int32(end))
	d.measEnd = append(d.measEnd, int32(len(d.measBuf)))
	l.rows += out.Len() - before
	l.lineEnd, l.meas = d.lineEnd, cap(d.measBuf)+4*cap(d.measEnd)+4*cap(d.lineEnd)
}

// relayout counts the document's complete lines at m's width from their measures, keeping
// the state each page starts in, and draws none of them.
func (d *Doc) relayout(m *Renderer) {
	l := &mdLayout{m: m, src: d.src, lineEnd: d.lineEnd, tailPage: -1, meas: d.lay.meas}
	var st blockState
	count := rows.NewCounter()
	m.states = &d.states
	from := 0
	for i, end := range d.measEnd {
		if i%PageLines == 0 {
			l.addPage(st, count.Len())
		}
		if !st.hasHeader && st.table == nil {
			m.use = d.measBuf[from:end]
		}
		m.line(&st, l.line(i), true, &count)
		m.use, from = nil, int(end)
	}
	m.states = nil
	l.rows, d.st, d.lay = count.Len(), st, l
}
