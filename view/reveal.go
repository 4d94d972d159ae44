package view

// Reveal is the ScrollUp that shows card card of entry entry (an index in f.Entries; card -1
// is the whole entry, e.g. a folded prompt) in f's window: f.ScrollUp when it is in view
// already, else the nearest scroll that shows it whole, or that puts its first row at the top
// of the window when it is taller than the window. It measures the entries from the tail up to
// entry, as ScrollUpFor does.
func (r *Renderer) Reveal(f Frame, entry, card int) int {
	height, maxScroll := r.Layout(f)
	t := &r.tr
	if entry < 0 || entry >= len(t.slots) || len(t.slots) != len(f.Entries) || height <= 0 {
		return min(max(0, f.ScrollUp), maxScroll)
	}
	t.frame++
	below := 0
	for i := len(t.slots) - 1; i > entry; i-- {
		t.measure(i)
		below += t.slots[i].rows(i)
	}
	v := t.use(entry)
	s := t.slots[entry]
	sep := s.rows(entry) - s.height
	from, to := 0, s.height
	if card >= 0 {
		if f, e, ok := v.cardRows(s.entry, card); ok {
			from, to = f, e
		}
	}
	t.evict()
	// Rows counted from the tail: the part's last row is bottom rows above the last line of the
	// transcript, its first row top-1.
	top := below + s.rows(entry) - sep - from
	bottom := below + s.rows(entry) - sep - to
	scroll := max(0, f.ScrollUp)
	switch {
	case top-bottom > height || top > scroll+height:
		scroll = top - height
	case bottom < scroll:
		scroll = bottom
	}
	return min(max(0, scroll), max(0, t.total-height))
}
