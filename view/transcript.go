package view

import ()
import "github.com/phasechat/phasechat/phase/transcript"

// defaultCacheBudget bounds the rendered lines kept for entries that were not needed in the
// current frame (P5 in docs/architecture.md, Performance): past it, the least recently used entries lose their lines and
// keep only their height, and are rendered again if they come back into view.
const defaultCacheBudget = 8 << 20

// slot is the transcript's record of one entry, at the same index as in Frame.Entries.
type slot struct {
	entry   *transcript.Entry
	version uint64 // the Version height was measured at
	width   int    // the width height was measured at
	height  int    // the entry's line count; an estimate unless exact
	exact   bool
	view    *entryView // the rendered lines; nil when never rendered or evicted
	bytes   int        // view's size as last accounted
	used    uint64     // the frame that last needed view

	prev, next *slot // the LRU list of slots holding a view, most recently used first
}

// rows is what the slot takes on screen: its lines and, for every entry but the first, the
// blank line above it.
func (s *slot) rows(i int) int {
	if i > 0 && s.height > 0 {
		return s.height + 1
	}
	return s.height
}

// transcript keeps one slot per entry and assembles the visible window. Per frame it walks
// from the tail only as far as the window reaches (ScrollUp plus the window's height), so its
// cost does not depend on how long the transcript is while following the tail. An entry is
// rendered when it changed (pointer, Version, width) and is walked; entries above the window
// are not looked at, so a change to one is drawn when it is scrolled to, and until then its
// old height stands in MaxScroll (as does an estimate for an entry never rendered).
type transcriptCache struct {
	pen    pen // its markdown renderer is nil until a width is set
	width  int
	slots  []*slot
	total  int // Σ rows over the slots
	bytes  int // Σ bytes over the slots holding a view
	budget int
	frame  uint64
	head   *slot // most recently used
	tail   *slot // least recently used

	renders int // entry renders so far (tests check the cache rules with it)
}

// setWidth rescales every height to the new width as an estimate. The views are kept: an
// entry drawn again at the new width counts its markdown's lines from what the old drawing
// measured, and draws only the rows a window shows.
func (t *transcriptCache) setWidth(w int) {
	if w == t.width {
		return
	}
	old := t.width
	t.width, t.total = w, 0
	for i, s := range t.slots {
		if old > 0 && s.height > 0 {
			s.height = max(1, (s.height*old+w-1)/w)
		}
		s.exact = false
		t.total += s.rows(i)
	}
}

// restyle drops every view and the markdown renderer, which were drawn in the old styles; the
// heights stand as estimates until each entry is drawn again in st.
func (t *transcriptCache) restyle(st *theme) {
	t.pen = pen{st: st}
	for _, s := range t.slots {
		t.drop(s)
		s.exact = false
	}
}

// reconcile matches the slots to entries: the same list or one with entries appended costs
// O(1) (it checks the first and the last entry); anything else rebuilds the slots by pointer,
// keeping what each entry had. A list changed in the middle with the same ends is noticed when
// the walk reaches the changed entry (window rebuilds then).
func (t *transcriptCache) reconcile(entries []*transcript.Entry) {
	n, m := len(entries), len(t.slots)
	same := n >= m && (m == 0 || entries[0] == t.slots[0].entry && entries[m-1] == t.slots[m-1].entry)
	if !same {
		t.rebuild(entries)
		return
	}
	for i := m; i < n; i++ {
		s := &slot{entry: entries[i], height: estimateHeight(entries[i], t.width)}
		t.slots = append(t.slots, s)
		t.total += s.rows(i)
	}
}

func (t *transcriptCache) rebuild(entries []*transcript.Entry) {
	byEntry := make(map[*transcript.Entry]*slot, len(t.slots))
	for _, s := range t.slots {
		byEntry[s.entry] = s
	}
	slots := make([]*slot, len(entries))
	t.total = 0
	for i, e := range entries {
		s, ok := byEntry[e]
		if ok {
			delete(byEntry, e)
		} else {
			s = &slot{entry: e, height: estimateHeight(e, t.width)}
		}
		slots[i] = s
		t.total += s.rows(i)
	}
	for _, s := range byEntry {
		t.drop(s)
	}
	t.slots = slots
}

// estimateHeight guesses an entry's height before it is rendered, in O(1).
func estimateHeight(e *transcript.Entry, width int) int {
	if e == nil {
		return 0
	}
	return 1 + len(e.Text())/max(1, width) + 2*len(e.Cards())
}

// measure makes slot i's height exact, rendering the entry if it changed.
func (t *transcriptCache) measure(i int) {
	s := t.slots[i]
	e := s.entry
	if e == nil {
		return
	}
	if s.exact && s.version == e.Version() && s.width == t.width {
		return
	}
	t.render(i)
}

// render brings slot i's view up to its entry and makes the height exact.
func (t *transcriptCache) render(i int) {
	s := t.slots[i]
	if s.view == nil {
		s.view = &entryView{}
		t.pushFront(s)
	}
	s.view.render(s.entry, t.pen)
	t.renders++
	t.total -= s.rows(i)
	s.height, s.version, s.width, s.exact = s.view.height(), s.entry.Version(), t.width, true
	t.total += s.rows(i)
	t.account(s)
	t.moveToFront(s)
	t.evictBefore(s)
}

// account brings the budget up to the memory s's view holds now.
func (t *transcriptCache) account(s *slot) {
	t.bytes -= s.bytes
	s.bytes = s.view.size()
	t.bytes += s.bytes
}

// use marks slot i as needed this frame and returns its view, rendering it if it was evicted.
func (t *transcriptCache) use(i int) *entryView {
	s := t.slots[i]
	s.used = t.frame
	if s.view == nil || s.version != s.entry.Version() || s.width != t.width {
		t.render(i)
	}
	t.moveToFront(s)
	return s.view
}

// markUsed marks s as needed this frame: no eviction of the frame drops its view.
func (t *transcriptCache) markUsed(s *slot) {
	s.used = t.frame
	if s.view != nil {
		t.moveToFront(s)
	}
}

// evict drops the views of the least recently used slots not needed this frame until the
// views fit the budget. It runs after every render, so measuring a long stretch of the
// transcript never holds more than the budget plus what the frame draws.
func (t *transcriptCache) evict() { t.evictBefore(nil) }

// evictBefore is evict that also keeps keep, the entry just rendered, which the walk that
// rendered it is about to use. The transcript's last entry is always kept too: every frame's
// walk starts there, and a streaming reply that alone outgrew the budget would otherwise be
// drawn from scratch on every frame.
func (t *transcriptCache) evictBefore(keep *slot) {
	var last *slot
	if len(t.slots) > 0 {
		last = t.slots[len(t.slots)-1]
	}
	for s := t.tail; s != nil && t.bytes > t.budget && s.used != t.frame; {
		prev := s.prev
		if s != keep && s != last {
			t.drop(s)
		}
		s = prev
	}
}

func (t *transcriptCache) drop(s *slot) {
	if s.view == nil {
		return
	}
	t.unlink(s)
	s.view = nil
	t.bytes -= s.bytes
	s.bytes = 0
}

func (t *transcriptCache) pushFront(s *slot) {
	s.prev, s.next = nil, t.head
	if t.head != nil {
		t.head.prev = s
	}
	t.head = s
	if t.tail == nil {
		t.tail = s
	}
}

func (t *transcriptCache) unlink(s *slot) {
	if s.prev != nil {
		s.prev.next = s.next
	} else {
		t.head = s.next
	}
	if s.next != nil {
		s.next.prev = s.prev
	} else {
		t.tail = s.prev
	}
	s.prev, s.next = nil, nil
}

func (t *transcriptCache) moveToFront(s *slot) {
	if t.head == s {
		return
	}
	t.unlink(s)
	t.pushFront(s)
}
