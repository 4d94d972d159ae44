package markdown

import (
	"sort"
	"unsafe"
)

// A long text's display lines (a table cell's, a long line's) are not kept drawn: their
// drawing costs about the text again, and a narrow column's, a short painted line for every
// display line, more. A text keeps how many display lines it has and, about every rowBlock of
// them, where parsing and wrapping resume at the start of one (a mark); a line is drawn when
// read, with the rowBlock lines around it, from the nearest mark before it, and the last two
// blocks read are kept. What grows a text (openLine, openCell) keeps drawn the lines it
// committed since its last mark, which a window on the growing end reads.

const (
	// rowBlock is how many display lines of a text are drawn at once.
	rowBlock = 64
	// maxLinkCells is the most cells a link draws that parsing cannot resume after: its text,
	// a space and its address, all but the last.
	maxLinkCells = maxLinkText + 1 + maxLinkURL
)

// markedWrap is a text wrapped at width: its display lines as marks. The text it is read with
// is the one it was measured from, or that text grown (a growing text, not final).
type markedWrap struct {
	width   int
	base    mdStyle
	final   bool    // the text is complete: spans left open are drawn literal
	literal []int32 // the openers its final parse draws as literal text
	lines   int
	marks   []rowMark // in order; the first is the text's start
	last    [2]partBlock
}

// rowMark is the start of display line line of a text: parsing resumes at offset at of it in
// state st, and the line starts skip cells later (a line may start inside a link, where
// parsing cannot resume).
type rowMark struct {
	line, at, skip int32
	st             inlineState
}

// partBlock is display lines b*rowBlock..hi-1 of a text, drawn: they are the same lines of
// every text it grows to.
type partBlock struct {
	b, hi int
	parts []part
}

// newMarkedWrap is the wrap of a text whose inline content starts at offset from, no line
// counted yet.
func newMarkedWrap(width int, base mdStyle, final bool, from int) markedWrap {
	return markedWrap{width: width, base: base, final: final, marks: []rowMark{{at: int32(from), st: noSpans()}}}
}

// measuredWrap is text wrapped at width, measured: its parse and wrap hold about chunk cells
// at a time.
func measuredWrap(text string, width int, base mdStyle, final bool, chunk int) markedWrap {
	c := newMarkedWrap(width, base, final, 0)
	p := inlineParser{src: text, base: base, final: final}
	for pass := range 8 {
		c.lines, c.marks = 0, c.marks[:1]
		p.out = p.out[:0]
		st := wrapFrom(&p, 0, noSpans(), 0, width, chunk, func(cells []cell, l cellLine) bool {
			c.add(cells, l, 0)
			return true
		})
		open := spanOpeners(st)
		if !final || len(open) == 0 || pass == 7 {
			break
		}
		p.literal = append(p.literal, open...)
	}
	c.literal = p.literal
	c.marks = c.marks[:len(c.marks):len(c.marks)]
	return c
}

// add counts display line l of cells, whose offsets are off bytes into the text, and marks
// where the next one starts when it is due and parsing can resume in cells before it. It
// reports whether it marked.
func (c *markedWrap) add(cells []cell, l cellLine, off int) bool {
	c.lines++
	last := c.marks[len(c.marks)-1]
	if c.lines-int(last.line) >= rowBlock {
		if k := resumableBefore(cells, l.next); k >= 0 {
			c.marks = append(c.marks, rowMark{line: int32(c.lines), at: int32(off + cells[k].end), skip: int32(l.next - 1 - k), st: cells[k].st})
			return true
		}
	}
	return false
}

// resumableBefore is the last of cells[:n] that parsing can resume after, looking back as far
// as a link's cells reach; -1 for none.
func resumableBefore(cells []cell, n int) int {
	for k := n - 1; k >= max(0, n-maxLinkCells); k-- {
		if cells[k].end >= 0 {
			return k
		}
	}
	return -1
}

// at is display line j of text, when text is the one c counted lines display lines of (a
// growing text, when it had them): c may have counted more since, of a later text, and its
// lines read before never change. Nothing past lines.
func (c *markedWrap) at(m *Renderer, text string, lines, j int) part {
	if j >= min(lines, c.lines) {
		return part{}
	}
	b := j / rowBlock
	for k := range c.last {
		if blk := &c.last[k]; blk.parts != nil && blk.b == b && j < blk.hi {
			p := blk.parts[j-b*rowBlock]
			if k > 0 {
				c.last[0], c.last[k] = c.last[k], c.last[0]
			}
			return p
		}
	}
	// The block ends where text's lines do: a later text's lines past them are not text's.
	lo, hi := b*rowBlock, min(lines, (b+1)*rowBlock)
	k := sort.Search(len(c.marks), func(k int) bool { return int(c.marks[k].line) > lo }) - 1
	mk := c.marks[k]
	// Parsing stops at the first chunk of cells that completes line hi-1: a chunk is a few
	// display lines.
	chunk := max(256, 8*c.width)
	p := inlineParser{src: text, base: c.base, final: c.final, literal: c.literal, out: make([]cell, 0, 2*chunk)}
	parts := make([]part, 0, hi-lo)
	line := int(mk.line)
	wrapFrom(&p, int(mk.at), mk.st, int(mk.skip), c.width, chunk, func(cells []cell, l cellLine) bool {
		if line >= lo {
			parts = append(parts, partOf(m, cells, l))
		}
		line++
		return line < hi
	})
	c.last[1], c.last[0] = c.last[0], partBlock{b: b, hi: hi, parts: parts}
	return parts[j-lo]
}

// size is the memory c holds.
func (c *markedWrap) size() int {
	n := int(unsafe.Sizeof(*c)) + 4*cap(c.literal) + int(unsafe.Sizeof(rowMark{}))*cap(c.marks)
	return n + partsSize(c.last[0].parts) + partsSize(c.last[1].parts)
}

// partsSize is the memory ps holds.
func partsSize(ps []part) int {
	n := int(unsafe.Sizeof(part{})) * cap(ps)
	for _, p := range ps {
		n += len(p.s)
	}
	return n
}
