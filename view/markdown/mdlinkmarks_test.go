package markdown

import (
	"strings"
	"testing"
)

// linkPiece is text whose display lines, at most widths, end inside a link: its text and its
// address are drawn, and parsing resumes only after the link.
const linkPiece = "[some link text](https://example.com/a/long/address) w "

// checkMarkedEveryBlock fails unless w's marks are at most two blocks apart, the last one
// included.
func checkMarkedEveryBlock(t *testing.T, what string, w *markedWrap) {
	t.Helper()
	if w.lines < 4*rowBlock {
		t.Fatalf("%s: only %d display lines", what, w.lines)
	}
	prev := 0
	for _, mk := range append(w.marks[1:], rowMark{line: int32(w.lines)}) {
		if int(mk.line)-prev > 2*rowBlock {
			t.Fatalf("%s: no mark between display lines %d and %d of %d (%d marks)", what, prev, mk.line, w.lines, len(w.marks))
		}
		prev = int(mk.line)
	}
}

// A long cell or line whose display lines end inside links is marked every block or two,
// complete or streaming: a line read is drawn from a mark a block or two before it.
func TestTextWhoseLinesEndInsideLinksIsMarkedEveryBlock(t *testing.T) {
	pal := NewPalette(Dark())
	text := strings.Repeat(linkPiece, 1000)
	for _, width := range []int{40, 80, 120} {
		m := NewRenderer(pal, width, DefaultMeasure)
		head, delim := "| a | b |", "|---|---|"
		row := m.longRow(m.planTable(head, delim), "| x | "+text+" |", 0)
		checkMarkedEveryBlock(t, "a complete cell", &row.cols[1].wrap)

		var d Doc
		d.Update(m, head+"\n"+delim+"\n| "+text, true)
		checkMarkedEveryBlock(t, "a streaming cell", d.row.cell.done)

		var e Doc
		e.Update(m, "- "+text, true)
		checkMarkedEveryBlock(t, "a streaming line", e.open.done)
	}
}
