package view

// Anchor is a place in the transcript held by content rather than by distance from the tail:
// an entry (its index in Frame.Entries) and a row within the rows it takes, the blank row
// above every entry but the first counting as its row 0. Rows and Width are how many rows the
// entry took and the screen's width when the anchor was taken: at another width the entry
// rewraps and Row is rescaled to it; at the same width Row stands while the entry grows below.
type Anchor struct {
	Entry, Row, Rows, Width int
}

// TopAnchor is the transcript row at the top of f's window, taken from the line counts the
// Renderer's cache keeps (as Layout, it measures only from the tail up to the window).
func (r *Renderer) TopAnchor(f Frame) Anchor {
	height, _ := r.Layout(f)
	scroll, need := max(0, f.ScrollUp), max(0, f.ScrollUp)+height
	acc, first := r.tr.measureTail(f.Entries, need, scroll)
	if acc < need {
		scroll = min(scroll, max(0, acc-height))
	}
	start, row := max(0, acc-scroll-height), 0
	for i := first; i < len(r.tr.slots); i++ {
		n := r.tr.slots[i].rows(i)
		if row+n > start {
			return Anchor{Entry: i, Row: start - row, Rows: n, Width: max(1, f.Width)}
		}
		row += n
	}
	return Anchor{Entry: len(r.tr.slots), Width: max(1, f.Width)}
}

// ScrollUpFor is the ScrollUp that puts a at the top of f's window at f's size, within what
// there is to see. It measures the entries from the tail up to a's entry; a's row is rescaled
// to the rows the entry now takes.
func (r *Renderer) ScrollUpFor(f Frame, a Anchor) int {
	height, maxScroll := r.Layout(f)
	t := &r.tr
	if a.Entry < 0 || a.Entry >= len(t.slots) || len(t.slots) != len(f.Entries) {
		return min(max(0, f.ScrollUp), maxScroll)
	}
	t.frame++
	below := 0
	for i := len(t.slots) - 1; i > a.Entry; i-- {
		t.measure(i)
		below += t.slots[i].rows(i)
	}
	t.measure(a.Entry)
	rows := t.slots[a.Entry].rows(a.Entry)
	t.evict()
	row := min(a.Row, max(0, rows-1))
	if a.Width != max(1, f.Width) {
		row = rescaleRow(a, rows, t.slots[a.Entry].height)
	}
	return min(max(0, below+rows-row-height), max(0, t.total-height))
}

// rescaleRow is a's row within an entry that now takes rows rows, height of them its own
// lines (the rest the blank row above it): the blank row stays the blank row, and a line keeps
// its place in proportion.
func rescaleRow(a Anchor, rows, height int) int {
	sep, oldSep := rows-height, 0
	if a.Rows > 0 && sep > 0 {
		oldSep = 1
	}
	if a.Row < oldSep {
		return 0
	}
	line, oldHeight := a.Row-oldSep, a.Rows-oldSep
	if oldHeight > 0 && oldHeight != height {
		line = line * height / oldHeight
	}
	return sep + min(max(0, line), max(0, height-1))
}
