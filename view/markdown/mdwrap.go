package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/view/rows"
)

// cellLine is one display line's cells: cells[start:stop]; the next line starts at next
// (the spaces at a break are dropped).
type cellLine struct{ start, stop, next int }

// wrapWords greedily word-wraps cells to avail cells a line, breaking at spaces and inside a
// word only when it is longer than a line; a grapheme is never split. Each line but the last
// depends only on its own cells and the first word of the next line, so lines before the last
// stay as they are when cells are appended. No cells give one empty line.
func wrapWords(cells []cell, avail int) []cellLine {
	avail = max(1, avail)
	var out []cellLine
	start := 0
	for {
		w, brk, i := 0, -1, start
		for i < len(cells) {
			c := cells[i]
			if c.s == " " {
				brk = i
			}
			if w+c.w > avail && i > start {
				break
			}
			w += c.w
			i++
		}
		if i == len(cells) {
			return append(out, cellLine{start, len(cells), len(cells)})
		}
		stop := i
		if cells[i].s != " " && brk > start {
			stop = brk
		}
		next := stop
		for next < len(cells) && cells[next].s == " " {
			next++
		}
		for stop > start && cells[stop-1].s == " " {
			stop--
		}
		out = append(out, cellLine{start, stop, next})
		start = next
		if start == len(cells) {
			return out
		}
	}
}

// wrapHard cuts cells into lines of at most avail cells, keeping every space (code).
func wrapHard(cells []cell, avail int) []cellLine {
	avail = max(1, avail)
	var out []cellLine
	start := 0
	for {
		w, i := 0, start
		for i < len(cells) && (w+cells[i].w <= avail || i == start) {
			w += cells[i].w
			i++
		}
		out = append(out, cellLine{start, i, i})
		if i == len(cells) {
			return out
		}
		start = i
	}
}

// paintCells draws cells in their styles, one SGR run per change of style; trailing spaces
// are dropped.
func paintCells(p *Palette, cells []cell) string {
	for len(cells) > 0 && cells[len(cells)-1].s == " " {
		cells = cells[:len(cells)-1]
	}
	var b, run strings.Builder
	var style mdStyle
	for i, c := range cells {
		if i > 0 && c.style != style {
			b.WriteString(p.paint(run.String(), style))
			run.Reset()
		}
		style = c.style
		run.WriteString(c.s)
	}
	b.WriteString(p.paint(run.String(), style))
	return b.String()
}

// cellsWidth is the cells' width on screen.
func cellsWidth(cells []cell) int {
	w := 0
	for _, c := range cells {
		w += c.w
	}
	return w
}

// appendCells adds the graphemes of clean text s in one style (a tab as four spaces).
func appendCells(out []cell, s string, style mdStyle) []cell {
	for len(s) > 0 {
		g := graphemeAt(s)
		s = s[len(g):]
		if g == "\t" {
			for range len(rows.TabSpaces) {
				out = append(out, cellOf(" ", style))
			}
			continue
		}
		out = append(out, cellOf(g, style))
	}
	return out
}

// cellOf is grapheme g drawn in style, not a place parsing can resume after.
func cellOf(g string, style mdStyle) cell {
	w := 1
	if len(g) > 1 || g[0] >= utf8.RuneSelf {
		w = ansi.StringWidth(g)
	}
	return cell{s: g, w: w, style: style, end: -1}
}
