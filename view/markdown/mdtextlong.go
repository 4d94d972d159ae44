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
	return t.drawn.row(j, t.wrap.lines, func(lo, hi int, out *rows.Builder) {
		s := t.text.text()
		for j := lo; j < hi; j++ {
			pfx := t.rest
			if j == 0 {
				pfx = t.first
			}
			out.Add(strings.TrimRight(t.m.margin+pfx+t.wrap.at(t.m, s, t.wrap.lines, j).s, " "))
		}
	})
}

func (t *longText) AppendRows(dst []string, lo, hi int) []string {
	for j := lo; j < min(hi, t.wrap.lines); j++ {
		dst = append(dst, t.Row(j))
	}
	return dst
}

func (t *longText) Size() int {
	return int(unsafe.Sizeof(*t)) + len(t.text.own) + t.wrap.size() + t.drawn.size()
}
