package tea

import (
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// A terminal that re-wraps its lines on a resize (most do; xterm does not) splits every row of
// an inline program's area that is wider than the new width into several rows, so the area
// starts higher up than the renderer believes. Redrawn from where the renderer believes it
// starts, the area would leave its re-wrapped upper rows behind, stale, above the new one.
// Before the redraw after a width change, the cursor is therefore moved to where the area
// starts as the terminal re-wrapped it, and the renderer is told it is there, so the erase
// before the redraw clears every row the old area occupies.

// moveToRewrappedTop moves the cursor to the first row of the program's inline area as the
// terminal re-wrapped it at width, and tells the screen renderer the cursor is at the area's
// top-left corner. It writes to the terminal at once, as insertAbove does, so a print queued
// before the next frame starts from the same place.
func (s *cursedRenderer) moveToRewrappedTop(width int) {
	x, y := s.scr.Position()
	if width <= 0 || x < 0 || y < 0 {
		return
	}
	up := rowsAboveCursor(s.cellbuf.Buffer, x, y, width)
	if up > 0 {
		_, _ = s.w.Write([]byte("\r" + ansi.CursorUp(up)))
	} else {
		_, _ = s.w.Write([]byte("\r"))
	}
	s.scr.SetPosition(0, 0)
}

// rowsAboveCursor is how many rows above the cursor the area drawn in buf starts once a
// terminal re-wrapped it at width: every line above the cursor's takes usedWidth/width rows,
// rounded up (at least one), and the cursor's own line the rows before the cursor's column.
// The cursor is at column x of line y of buf (lines past buf's end are blank).
func rowsAboveCursor(buf *uv.Buffer, x, y, width int) int {
	up := 0
	for row := range y {
		up += rewrappedRows(lineWidth(buf, row), width)
	}
	return up + min(x/width, rewrappedRows(lineWidth(buf, y), width)-1)
}

// rewrappedRows is how many rows a line of used cells takes at width.
func rewrappedRows(used, width int) int {
	return max(1, (used+width-1)/width)
}

// lineWidth is how many cells of buf's line y are used: up to its last cell that is not blank.
// A blank cell with a style (a background colour) is used; a line past buf's end is blank.
func lineWidth(buf *uv.Buffer, y int) int {
	if buf == nil || y >= buf.Height() {
		return 0
	}
	line := buf.Line(y)
	for x := len(line) - 1; x >= 0; x-- {
		if c := &line[x]; !c.IsZero() && !c.Equal(&uv.EmptyCell) {
			return x + max(1, c.Width)
		}
	}
	return 0
}
