package tui

import (
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view"
)

// scrollPlace is where the transcript's window stands: following the tail, or held by content
// (the transcript row at the window's top), so that what arrives below changes nothing here.
// Lines up from the tail are what View draws with (view.Frame.ScrollUp); they are worked out
// from the place when asked (linesUp), never kept.
type scrollPlace struct {
	held     bool
	top      view.Anchor       // while held, the row at the window's top
	topEntry *transcript.Entry // the entry top.Entry was, so a transcript replaced under it follows the tail
	// left, while marked, is where following the tail stopped (the window's top then):
	// scrolling down to it, or past it, follows the tail again.
	left   view.Anchor
	marked bool
	// resized is the place a resize turned the held place from, while nothing else moved it
	// since: the next resize starts from it again, so a round trip of sizes comes back to the
	// very row (a place taken again at each size would drift).
	resized struct {
		from    view.Anchor
		entries int
		ok      bool
	}
}

// linesUp is how far the window's bottom stands above the tail; 0 follows it.
func (m *Model) linesUp() int {
	s := &m.scroll
	if !s.held || m.inline.on {
		return 0
	}
	entries := m.chat.Entries()
	if s.top.Entry >= len(entries) || entries[s.top.Entry] != s.topEntry {
		return 0 // the transcript was replaced under the place
	}
	return m.renderer.ScrollUpFor(m.baseFrame(), s.top)
}

// scrollBy moves the transcript up (positive) or down, within what there is to see.
func (m *Model) scrollBy(lines int) { m.scrollTo(m.linesUp() + lines) }

// scrollTo puts the window's bottom up lines above the tail, within what there is to see.
// Leaving the tail marks the place; moving down to that place, or past it, follows the tail
// again, however much the reply grew meanwhile: a page up and a page down while a reply
// streams is back at its newest line.
func (m *Model) scrollTo(up int) {
	if m.inline.on {
		return // the terminal scrolls its own scrollback
	}
	now := m.linesUp()
	f := m.baseFrame()
	f.ScrollUp = max(0, up)
	_, limit := m.renderer.Layout(f)
	up = min(max(0, up), limit)
	f.ScrollUp = 0
	switch {
	case now == 0:
		m.scroll.left, m.scroll.marked = m.renderer.TopAnchor(f), true
	case up < now && m.scroll.marked && up <= m.renderer.ScrollUpFor(f, m.scroll.left):
		up = 0
	}
	m.hold(up)
}

// hold puts the window's bottom up lines above the tail, as a place in the content; 0 follows
// the tail.
func (m *Model) hold(up int) {
	if up <= 0 {
		m.follow()
		return
	}
	f := m.baseFrame()
	f.ScrollUp = up
	s := &m.scroll
	s.top, s.held, s.resized.ok = m.renderer.TopAnchor(f), true, false
	s.topEntry = nil
	if entries := m.chat.Entries(); s.top.Entry < len(entries) {
		s.topEntry = entries[s.top.Entry]
	}
}

// follow goes back to the tail.
func (m *Model) follow() { m.scroll = scrollPlace{} }

// resize takes the new size. Held, the row at the top of the transcript stays at the top: the
// place, taken at the old width, is found again at the new one.
func (m *Model) resize(width, height int) {
	changed := width != m.width || height != m.height
	m.width, m.height = width, height
	m.scroll.marked = false // the place following stopped is not kept across a resize: the end follows
	m.composer.MaxHeight = composerMaxRows(height)
	m.composer.SetWidth(max(width, 10)) // also fits the composer's height to its text
	s := &m.scroll
	if !changed || !s.held || m.inline.on {
		return
	}
	m.composerView = m.composer.View()
	from, entries := s.top, len(m.chat.Entries())
	if s.resized.ok && s.resized.entries == entries {
		from = s.resized.from
	}
	m.hold(m.renderer.ScrollUpFor(m.baseFrame(), from))
	if s.held {
		s.resized.from, s.resized.entries, s.resized.ok = from, entries, true
	}
}
