package view

import (
	"strings"

	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"
	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/view/safe"
)

// mdRenderer renders markdown blocks with glamour at one width. It is not safe for concurrent
// use (glamour's renderer is stateful).
type mdRenderer struct {
	width  int
	keep   escapes // what is kept of glamour's escapes
	margin string  // the document margin glamour indents with; the plain tail uses it too
	tr     *glamour.TermRenderer
	blocks int // blocks rendered so far (tests check each is rendered once)
}

func newMDRenderer(cfg gansi.StyleConfig, keep escapes, width int) *mdRenderer {
	m := &mdRenderer{width: width, keep: keep}
	if cfg.Document.Margin != nil {
		m.margin = strings.Repeat(" ", int(*cfg.Document.Margin))
	}
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width), glamour.WithChromaFormatter("terminal16m"))
	if err == nil {
		m.tr = tr
	}
	return m
}

// renderBlock renders one markdown block (untrusted, raw) and adds its lines to b, preceded by
// a blank line when sep is set and the block has any. The raw text passes safe.Text first, numeric
// character references to unsafe code points are neutralised, and glamour's output passes
// cleanStyled, so neither the text nor glamour (OSC 8 hyperlinks, decoded entities) can put a
// control on the screen. Each line is trimmed of glamour's padding and fits m.width.
func (m *mdRenderer) renderBlock(b *linesBuilder, raw string, sep bool) {
	src := expandTabs(neutraliseCharRefs(safe.Text(raw)))
	if strings.TrimSpace(src) == "" {
		return
	}
	m.blocks++
	var out string
	var err error
	if m.tr != nil {
		out, err = m.tr.Render(src)
	}
	if m.tr == nil || err != nil {
		if sep {
			b.add("")
		}
		wrapInto(b, strings.Trim(src, "\n"), m.width, m.margin, m.margin, nil)
		return
	}
	var ls []string
	for line := range strings.SplitSeq(cleanStyled(out, m.keep), "\n") {
		line = trimStyledEnd(line)
		if ansi.StringWidth(line) <= m.width {
			ls = append(ls, line)
			continue
		}
		for piece := range strings.SplitSeq(ansi.Hardwrap(line, m.width, true), "\n") {
			ls = append(ls, trimStyledEnd(piece))
		}
	}
	ls = rejoinMarks(ls)
	for len(ls) > 0 && ls[0] == "" {
		ls = ls[1:]
	}
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	if len(ls) == 0 {
		return
	}
	if sep {
		b.add("")
	}
	for _, line := range ls {
		b.add(line)
	}
}

// mdDoc renders a growing markdown reply incrementally. The text is cut into blocks at a blank
// line (outside a fenced code block) followed by a line that starts in column 0, so an
// indented continuation (list item, indented code) never starts a block. Each complete block
// is rendered with glamour once and kept; while the text streams, the open last block is
// plain-wrapped per frame with only its last source line re-wrapped. When streaming ends the
// open block is rendered with glamour too, so a finished reply is its blocks rendered one by
// one, identical however it arrived.
//
// Because safe.Text works rune by rune, sanitising each block (cut at '\n') equals
// sanitising the accumulated text: an escape split across deltas is still caught.
type mdDoc struct {
	src        string // the text last rendered; later text must extend it, or all restarts
	width      int
	scan       int  // start of the first line not yet scanned
	blockStart int  // src[:blockStart] is rendered in done
	sawBlank   bool // a blank line (outside a fence) follows the open block's last content
	fence      fenceState
	done       linesBuilder
	finalFor   int   // len(src) the final block was rendered for; -1 for none
	final      lines // the open block rendered with glamour, once the text stopped streaming
	tail       incWrap
}

// update brings the document up to text and returns its lines: the complete blocks, then the
// open block (plain while streaming, rendered once streaming has ended).
func (d *mdDoc) update(m *mdRenderer, text string, streaming bool) (stable, open, openTail lines) {
	if d.width != m.width || len(text) < len(d.src) || !strings.HasPrefix(text, d.src) {
		*d = mdDoc{width: m.width, finalFor: -1}
	}
	d.advance(m, text)
	stable = d.done.snapshot()
	rest := text[d.blockStart:]
	if !streaming {
		if d.finalFor != len(text) {
			var b linesBuilder
			m.renderBlock(&b, rest, d.done.len() > 0)
			d.final, d.finalFor = b.compact(), len(text)
			d.tail = incWrap{}
			d.done.shrink()
			stable = d.done.snapshot()
		}
		return stable, d.final, lines{}
	}
	if strings.TrimSpace(rest) == "" {
		return stable, lines{}, lines{}
	}
	open, openTail = d.tail.update(text, wrapKey{base: d.blockStart, gap: d.done.len() > 0, width: m.width, indent: m.margin}, nil)
	return stable, open, openTail
}

// blockRenderer renders one complete markdown block; tests record the blocks instead.
type blockRenderer interface {
	renderBlock(b *linesBuilder, raw string, sep bool)
}

// advance scans text from where the last call stopped (text extends d.src) and renders each
// block that became complete. Its cost is O(new text) plus the new blocks' rendering.
func (d *mdDoc) advance(br blockRenderer, text string) {
	d.src = text
	for {
		nl := strings.IndexByte(text[d.scan:], '\n')
		if nl < 0 {
			break
		}
		d.scanLine(br, d.scan, text[d.scan:d.scan+nl])
		d.scan += nl + 1
	}
	if d.scan < len(text) {
		d.startBlock(br, d.scan, text[d.scan])
	}
}

// scanLine advances the block state over one complete source line starting at start.
func (d *mdDoc) scanLine(br blockRenderer, start int, line string) {
	if d.fence.open {
		d.fence.closeOn(line)
		return
	}
	if strings.TrimSpace(line) == "" {
		d.sawBlank = true
		return
	}
	d.startBlock(br, start, line[0])
	d.sawBlank = false
	d.fence.openOn(line)
}

// startBlock ends the open block before the line at start when that line follows a blank line
// and begins with first in column 0 (not a space or tab): the first byte decides, so a block
// is complete as soon as the next one has begun, even before the new line ends.
func (d *mdDoc) startBlock(br blockRenderer, start int, first byte) {
	if d.fence.open || !d.sawBlank || first == ' ' || first == '\t' || start <= d.blockStart {
		return
	}
	br.renderBlock(&d.done, d.src[d.blockStart:start], d.done.len() > 0)
	d.blockStart = start
	d.sawBlank = false
}

// fenceState tracks whether a fenced code block (``` or ~~~, indented at most three spaces) is
// open; blank lines inside one do not end a block.
type fenceState struct {
	open bool
	char byte
	n    int
}

func fenceRun(line string) (c byte, n int, rest string) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return 0, 0, ""
	}
	c = line[i]
	j := i
	for j < len(line) && line[j] == c {
		j++
	}
	return c, j - i, line[j:]
}

func (f *fenceState) openOn(line string) {
	c, n, rest := fenceRun(line)
	if n >= 3 && !(c == '`' && strings.IndexByte(rest, '`') >= 0) {
		*f = fenceState{open: true, char: c, n: n}
	}
}

func (f *fenceState) closeOn(line string) {
	c, n, rest := fenceRun(line)
	if c == f.char && n >= f.n && strings.TrimSpace(rest) == "" {
		*f = fenceState{}
	}
}
