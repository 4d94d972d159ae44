package wire

import "github.com/phasechat/phasechat/phase"

// lender lends the Events and Calls of a decoder's updates from shared blocks. An update is
// built in scratch slices the decoder reuses, then copied into the current blocks, so the
// usual update (an event or two, a call event) allocates nothing of its own. Each slice lent
// is capped at its length: appending to it never writes into a block.
type lender struct {
	events, eventScratch []phase.Event
	calls, callScratch   []phase.CallEvent
}

// Slices of each kind per block.
const lendBlock = 64

// start makes u's Events and Calls the empty scratch slices.
func (l *lender) start(u *Update) { u.Events, u.Calls = l.eventScratch[:0], l.callScratch[:0] }

// keep moves u's Events and Calls out of the scratch slices into the blocks (nil when empty).
func (l *lender) keep(u *Update) {
	l.eventScratch, l.callScratch = u.Events[:0], u.Calls[:0]
	u.Events = carve(&l.events, u.Events)
	u.Calls = carve(&l.calls, u.Calls)
}

// carve returns a copy of s taken from *block (a new block when it has too little room; s
// alone when s is large), or nil when s is empty.
func carve[T any](block *[]T, s []T) []T {
	switch {
	case len(s) == 0:
		return nil
	case len(s) > lendBlock/4:
		return append([]T(nil), s...)
	case len(s) > len(*block):
		*block = make([]T, lendBlock)
	}
	out := (*block)[:len(s):len(s)]
	copy(out, s)
	*block = (*block)[len(s):]
	return out
}
