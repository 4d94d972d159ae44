package transcript

// The focusable items of a transcript, in screen order, are every reply's cards (in the order
// of its parts) and every prompt long enough to fold or carrying files. At most one is
// focused; the transcript owns which. Moving the focus and toggling the focused item bump the
// entries they change, so a renderer caching by version redraws the marks.

// focusItem is one focusable item: an entry and its card's index plus one, or focusWhole.
type focusItem struct {
	entry *Entry
	at    int
}

// items lists the focusable items in screen order.
func (t *Transcript) items() []focusItem {
	var out []focusItem
	for _, e := range t.entries {
		if e.Expandable() {
			out = append(out, focusItem{e, focusWhole})
		}
		for _, p := range e.parts {
			if p.IsCard() {
				out = append(out, focusItem{e, p.card + 1})
			}
		}
	}
	return out
}

// Focus returns the focused item: its entry's index and the card's index in it (-1 for the
// prompt itself); ok is false when nothing is focused.
func (t *Transcript) Focus() (entry, card int, ok bool) {
	if t.focus == nil {
		return 0, 0, false
	}
	for i, e := range t.entries {
		if e == t.focus {
			return i, e.FocusedCard(), true
		}
	}
	return 0, 0, false
}

// MoveFocus moves the focus by delta items (negative is up, towards older ones). With nothing
// focused, up focuses the newest item and down does nothing; moving down past the newest item
// leaves nothing focused, and up past the oldest stays on it. It reports whether the focus
// changed.
func (t *Transcript) MoveFocus(delta int) bool {
	items := t.items()
	if len(items) == 0 || delta == 0 {
		return false
	}
	cur := -1
	for i, it := range items {
		if it.entry == t.focus && it.at == t.focus.focused {
			cur = i
			break
		}
	}
	next := cur + delta
	switch {
	case cur < 0 && delta > 0:
		return false
	case cur < 0:
		next = max(0, len(items)+delta)
	case next < 0:
		next = 0
	case next >= len(items):
		t.ClearFocus()
		return true
	}
	if next == cur {
		return false
	}
	t.setFocus(items[next])
	return true
}

// ClearFocus leaves nothing focused.
func (t *Transcript) ClearFocus() {
	if t.focus != nil {
		t.focus.focused = noFocus
		t.focus.bump()
		t.focus = nil
	}
}

func (t *Transcript) setFocus(it focusItem) {
	t.ClearFocus()
	it.entry.focused = it.at
	it.entry.bump()
	t.focus = it.entry
}

// ToggleFocused expands or folds the focused card or prompt; it reports whether something
// was focused.
func (t *Transcript) ToggleFocused() bool {
	e := t.focus
	switch {
	case e == nil:
		return false
	case e.focused == focusWhole:
		e.expanded = !e.expanded
		e.bump()
	default:
		t.ToggleCard(e, e.focused-1)
	}
	return true
}
