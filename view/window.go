package view

import (
	"github.com/phasechat/phasechat/view/rows"
)
import "github.com/phasechat/phasechat/phase/transcript"

// window returns the transcript rows of a window height rows tall whose bottom is scrollUp
// rows above the tail (clamped to the top), and the largest useful scrollUp. It walks from
// the tail measuring entries until it has scrollUp+height rows or reaches the top, then
// emits only the rows inside the window, so its work is bounded by scrollUp+height and the
// number of runs those rows come from, never by the transcript's length.
func (t *transcriptCache) window(entries []*transcript.Entry, scrollUp, height int) (out []string, maxScroll int) {
	scrollUp, height = max(0, scrollUp), max(0, height)
	acc, first := t.measureTail(entries, scrollUp+height, scrollUp)
	need := scrollUp + height
	scroll := scrollUp
	if acc < need { // reached the top: every entry is measured
		scroll = min(scrollUp, max(0, acc-height))
	}
	start, end := max(0, acc-scroll-height), acc-scroll
	out = make([]string, 0, height)
	r := 0
	for i := first; i < len(t.slots) && r < end; i++ {
		s := t.slots[i]
		if r+s.rows(i) <= start {
			r += s.rows(i)
			continue
		}
		if s.rows(i) > s.height {
			if r >= start {
				out = append(out, "")
			}
			r++
		}
		if s.height == 0 || r >= end {
			continue
		}
		v := t.use(i)
		out = rows.AppendRange(out, v.segs, max(0, start-r), min(end-r, s.height))
		t.account(s) // reading rows may have drawn them (markdown/mdpages.go)
		r += s.height
	}
	t.evict()
	return out, max(0, t.total-height)
}

// measureTail brings the cache up to date with entries and measures them from the tail up
// until it has need rows or reaches the top. It returns the rows measured and the first
// entry measured. Afterwards t.total is the transcript's line count (exact for every entry
// measured, estimated for the rest). The entries reaching above the first below rows (the
// window's, when below is its ScrollUp) are marked needed this frame, so no eviction of the
// frame drops what it shows; the others measured may be let go.
func (t *transcriptCache) measureTail(entries []*transcript.Entry, need, below int) (acc, first int) {
	t.frame++
	t.reconcile(entries)
	acc, first = 0, len(t.slots)
	for first > 0 && acc < need {
		first--
		if t.slots[first].entry != entries[first] {
			t.rebuild(entries)
			acc, first = 0, len(t.slots)
			continue
		}
		t.measure(first)
		s := t.slots[first]
		if acc+s.rows(first) > below {
			t.markUsed(s)
		}
		acc += s.rows(first)
	}
	return acc, first
}
