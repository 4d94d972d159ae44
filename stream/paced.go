package stream

import (
	"bytes"
	"io"
)

// paced is the framer's view of the body. sse.EventStreamReader's split function rescans
// every buffered byte for a blank line (with five searches) each time it gets more input, so
// handing it the input as it arrives costs O(event size) per read: quadratic for a large
// event that trickles in, and O(buffer) per event when one read brings many small events.
// paced bounds both: each Read hands over input up to the end of the next complete event
// (no added latency), or, while an event is incomplete, a piece as large as the event so far
// (so a large event is rescanned a logarithmic number of times), or what is left once the
// input has ended.
//
// It also records the input's first error (io.EOF at its end) and its last bytes (to tell
// whether it ended with a blank line), and calls onRead after every read of the input that
// returned bytes (the stall watchdog's heartbeat). Once err is set, Read never blocks.
type paced struct {
	r      io.Reader
	onRead func()
	err    error // the first error the input returned (io.EOF at its end)

	store   []byte // input not yet handed over is store[start:end]
	start   int
	end     int
	blank   int    // index in store just after the first blank line not handed over, or -1
	pending int    // bytes handed over since the last blank line handed over
	handed  []byte // the last two bytes handed over
	last    []byte // the last four bytes of input
}

// minRead is the most paced hands over at a time while events are small.
const minRead = 512

func newPaced(r io.Reader, onRead func()) *paced {
	return &paced{r: r, onRead: onRead, blank: -1, store: make([]byte, 4*minRead)}
}

// firstBlankLineEnd returns the index in b just after its first blank line (an empty line:
// every blank line contains "\n\n", "\r\r" or "\n\r\n"), counting one that starts in the (at
// most two) bytes before b; -1 if there is none.
func firstBlankLineEnd(before, b []byte) int {
	for j := 1; j <= min(2, len(b)); j++ { // a blank line across the boundary
		var w [4]byte
		window := append(append(w[:0], before...), b[:j]...)
		if bytes.HasSuffix(window, []byte("\n\n")) || bytes.HasSuffix(window, []byte("\r\r")) ||
			bytes.HasSuffix(window, []byte("\n\r\n")) {
			return j
		}
	}
	if bytes.IndexByte(b, '\r') < 0 { // the common case: LF only
		if i := bytes.Index(b, []byte("\n\n")); i >= 0 {
			return i + 2
		}
		return -1
	}
	end := -1
	for _, sep := range [...]string{"\n\n", "\r\r", "\n\r\n"} {
		if i := bytes.Index(b, []byte(sep)); i >= 0 && (end < 0 || i+len(sep) < end) {
			end = i + len(sep)
		}
	}
	return end
}

func (p *paced) Read(b []byte) (int, error) {
	want := max(minRead, p.pending)
	for p.blank < 0 && p.end-p.start < want && p.err == nil {
		p.fill(want - (p.end - p.start))
	}
	if p.end == p.start {
		return 0, p.err
	}
	n := min(len(b), want, p.end-p.start)
	atBlank := p.blank >= 0 && p.blank-p.start <= n
	if atBlank {
		n = p.blank - p.start
	}
	copy(b, p.store[p.start:p.start+n])
	p.handed = keepTail(p.handed, p.store[p.start:p.start+n], 2)
	p.start += n
	if atBlank {
		p.pending = 0
		p.blank = -1
		if e := firstBlankLineEnd(nil, p.store[p.start:p.end]); e >= 0 {
			p.blank = p.start + e
		}
	} else {
		p.pending += n
	}
	return n, nil
}

// fill reads once from the input, about size bytes, into store after the bytes held.
func (p *paced) fill(size int) {
	size = max(size, minRead)
	if held := p.end - p.start; p.end+size > len(p.store) {
		store := p.store
		if held+size > len(store) {
			store = make([]byte, 2*(held+size))
		}
		copy(store, p.store[p.start:p.end])
		p.store, p.start, p.end = store, 0, held
	}
	space := p.store[p.end : p.end+size]
	n, err := p.r.Read(space)
	if n > 0 {
		if e := firstBlankLineEnd(lastTwo(p.current(), p.store[p.start:p.end]), space[:n]); e >= 0 {
			p.blank = p.end + e
		}
		p.end += n
		p.last = keepTail(p.last, space[:n], 4)
		if p.onRead != nil {
			p.onRead()
		}
	}
	if err != nil {
		p.err = err
	}
}

// current returns the last bytes handed over of the event not yet ended: none when the last
// handover ended at a blank line, since the reader's splitter cut its event there and never
// sees those bytes again (a blank line across that cut is not one it would end an event on).
func (p *paced) current() []byte {
	if p.pending == 0 {
		return nil
	}
	return p.handed
}

// lastTwo returns the last two bytes of a followed by b.
func lastTwo(a, b []byte) []byte {
	if len(b) >= 2 {
		return b[len(b)-2:]
	}
	out := make([]byte, 0, 2)
	out = append(out, a[max(0, len(a)-(2-len(b))):]...)
	return append(out, b...)
}

// keepTail returns the last n bytes of prev followed by b, reusing prev's array when it can.
func keepTail(prev, b []byte, n int) []byte {
	if len(b) >= n {
		return append(prev[:0], b[len(b)-n:]...)
	}
	prev = append(prev, b...)
	return append(prev[:0], prev[max(0, len(prev)-n):]...)
}

// endsWithBlankLine reports whether the input so far ends with an empty line, i.e. its last
// event was terminated (or it was empty).
func (p *paced) endsWithBlankLine() bool {
	for _, end := range [...]string{"\n\n", "\r\r", "\r\n\r\n", "\n\r\n", "\r\n\n"} {
		if bytes.HasSuffix(p.last, []byte(end)) {
			return true
		}
	}
	return len(p.last) == 0
}
