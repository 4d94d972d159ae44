package markdown

import (
	"strings"
	"unsafe"

	"github.com/phasechat/phasechat/view/rows"
)

// longText is a long complete line of text, drawn on demand (mdrowlong.go): its content
// wrapped under its shape's prefixes.
type longText struct {
	m           *Renderer
	text        heldText // the line's inline content
	first, rest string   // the prefixes of its first and its other display lines
	wrap        markedWrap
	drawn       drawnBlocks
}

// longText measures content, the inline content of the complete line s (sanitised) drawn in
// shape sh, which starts at offset sh.content of s.
func (m *Renderer) longText(sh shape, s, content string) *longText {
	avail, first, rest := m.prefixes(sh)
	return &longText{
		m: m, text: m.hold(s, sh.content, sh.content+len(content)), first: first, rest: rest,
		wrap: measuredWrap(content, avail, sh.base, true, longLineChunk),
	}
}

// Row is display line j, as wrappedLong draws it.
func (t *longText) Row(j int) string {
	return t.m.prefixedRow(&t.drawn, &t.wrap, t.text.text, t.first, t.rest, t.wrap.lines, j)
}

// prefixedRow is display line j of the first n that w counted of text() (a growing text,
// when it had n), under prefix first (line 0) or rest, as wrapped draws it: from d's blocks,
// drawn when not kept.
func (m *Renderer) prefixedRow(d *drawnBlocks, w *markedWrap, text func() string, first, rest string, n, j int) string {
	return d.row(j, n, func(lo, hi int, out *rows.Builder) {
		s := text()
		for j := lo; j < hi; j++ {
			pfx := rest
			if j == 0 {
				pfx = first
			}
			out.Add(strings.TrimRight(m.margin+pfx+w.at(m, s, n, j).s, " "))
		}
	})
}

func (t *longText) AppendRows(dst []string, lo, hi int) []string {
	return appendRows(dst, lo, min(hi, t.wrap.lines), t.Row)
}

// appendRows appends row(j) for j in lo..hi-1 to dst.
func appendRows(dst []string, lo, hi int, row func(j int) string) []string {
	for j := lo; j < hi; j++ {
		dst = append(dst, row(j))
	}
	return dst
}

func (t *longText) Size() int {
	return int(unsafe.Sizeof(*t)) + len(t.text.own) + t.wrap.size() + t.drawn.size()
}
