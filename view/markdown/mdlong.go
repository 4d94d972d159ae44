package markdown

import "github.com/phasechat/phasechat/view/rows"

// A long source line (a reply on one line, a paragraph without breaks) is drawn in chunks so
// that its cells, several times its text's size, are never all held at once: the inline
// parser hands over its cells every longLineChunk cells, the display lines they complete are
// painted, and only the cells of the lines still open are kept. The drawing is the one
// parseLine and wrapWords make of the whole line.

const (
	// longLine is the content length, in bytes, from which a line is drawn in chunks.
	longLine = 16 << 10
	// longLineChunk is how many cells the parser gathers before they are wrapped.
	longLineChunk = 4096
	// keptScratch is the most cells a partial line's scratch keeps between updates: about
	// the two display lines it rewraps and a frame's text.
	keptScratch = 1024
	// bigLine is the drawing, in bytes, past which a complete line's rows drop their spare
	// room once drawn.
	bigLine = 256 << 10
)

// chunkSink receives a parser's cells in order whenever it has gathered at least limit of
// them, at a point between two graphemes; it returns the cells it keeps (a suffix of them),
// or sets stop.
type chunkSink struct {
	limit int
	take  func(cells []cell) []cell
	stop  bool // the parser stops after the take that set it
}

// spanOpeners are the openers of the spans st leaves open, which a final line draws as
// literal text.
func spanOpeners(st inlineState) []int32 {
	var at []int32
	for _, o := range []int32{st.boldAt, st.italAt, st.strikeAt, st.codeAt} {
		if o >= 0 {
			at = append(at, o)
		}
	}
	return at
}

// wrappedLong is m.wrapped(sh, parseLine(content, sh.base, final), out), holding about chunk
// cells at a time.
func (m *Renderer) wrappedLong(sh shape, content string, final bool, out *rows.Builder, chunk int) {
	p := inlineParser{src: content, base: sh.base, final: final, out: m.cells[:0]}
	if final {
		// parseLineWith's passes, but those that only learn which openers stay literal keep
		// no cells.
		p.sink = &chunkSink{limit: chunk, take: func([]cell) []cell { return nil }}
		for pass := range 8 {
			p.out = p.out[:0]
			open := spanOpeners(p.run(0, noSpans()))
			if len(open) == 0 || pass == 7 {
				break
			}
			p.literal = append(p.literal, open...)
		}
	}
	avail, firstP, restP := m.prefixes(sh)
	drawn := 0
	add := func(cells []cell, l cellLine) {
		if out.Counting() {
			out.AddCount(1)
		} else {
			pfx := restP
			if drawn == 0 {
				pfx = firstP
			}
			out.Add(m.paintRow(pfx, cells, l))
		}
		drawn++
	}
	p.out = p.out[:0]
	wrapChunked(&p, avail, chunk, add)
}

// wrapChunked runs p over its text and word-wraps the cells to avail cells a line as
// wrapWords does, handing each display line to add with the cells it indexes, while holding
// about chunk cells at a time: the parser hands over its cells every chunk cells, the display
// lines they complete are added, and only the cells of the lines still open are kept. add's
// cells are valid until it returns.
func wrapChunked(p *inlineParser, avail, chunk int, add func(cells []cell, l cellLine)) {
	wrapFrom(p, 0, noSpans(), 0, avail, chunk, func(cells []cell, l cellLine) bool {
		add(cells, l)
		return true
	})
}

// wrapFrom is wrapChunked from offset from of p's text, in state st, where a display line
// starts skip cells later; it stops once add returns false, and returns the parser's state at
// the end of the text (meaningless when it stopped).
func wrapFrom(p *inlineParser, from int, st inlineState, skip, avail, chunk int, add func(cells []cell, l cellLine) bool) inlineState {
	sink := &chunkSink{limit: chunk}
	sink.take = func(cells []cell) []cell {
		if skip > 0 {
			d := min(skip, len(cells))
			cells, skip = cells[d:], skip-d
		}
		ls := wrapWords(cells, avail)
		// The last line grows; the one before it ends where the last begins.
		keep := max(0, len(ls)-2)
		for _, l := range ls[:keep] {
			if !add(cells, l) {
				sink.stop = true
				return nil
			}
		}
		if keep > 0 {
			cells = cells[ls[keep].start:]
		}
		sink.limit = len(cells) + chunk
		return cells
	}
	p.sink = sink
	st = p.run(from, st)
	if sink.stop {
		return st
	}
	cells := p.out[min(skip, len(p.out)):]
	for _, l := range wrapWords(cells, avail) {
		if !add(cells, l) {
			break
		}
	}
	return st
}
