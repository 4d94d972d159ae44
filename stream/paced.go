package stream

import (
	"bytes"
	"io"
)

// paced is the framer's view of the body. sse.EventStreamReader's split function rescans
// every buffered byte for a blank line each time it gets more input, so handing it the input
// as it arrives costs O(event size) per read: quadratic for a large event that trickles in,
// and O(buffer) per event when a read brings many small events. paced bounds both. It hands
// over input only once it holds a blank line (a complete event: no added latency), or a
// piece as large as the event so far (so a large event is rescanned a logarithmic number of
// times), or the input has ended; and it hands over at most that much at a time.
//
// It also records the input's first error (io.EOF at its end) and the input's last bytes
// (to tell whether it ended with a blank line), and calls onRead after every read of the
// input that returned bytes (the stall watchdog's heartbeat). Once err is set, Read never
// blocks.
type paced struct {
	r      io.Reader
	onRead func()
	err    error // the first error the input returned (io.EOF at its end)

	buf      []byte // input not yet handed over
	complete bool   // buf holds a blank line
	pending  int    // bytes handed over since the last blank line handed over
	handed   []byte // the last two bytes handed over
	last     []byte // the last four bytes of input
}

// minRead is the most paced hands over at a time while events are small.
const minRead = 512

// blankLines are the byte sequences one of which every blank line (an empty line ended by CR,
// LF or CRLF, after a line ending) contains.
var blankLines = [...][]byte{[]byte("\n\n"), []byte("\r\r"), []byte("\n\r\n")}

// blankLineEnd returns the index in b just after its last blank line, counting one that
// starts in the (at most two) bytes before b; -1 if there is none.
func blankLineEnd(before, b []byte) int {
	end := -1
	for _, sep := range blankLines {
		if i := bytes.LastIndex(b, sep); i >= 0 && i+len(sep) > end {
			end = i + len(sep)
		}
	}
	if end >= 0 {
		return end
	}
	for j := min(2, len(b)); j >= 1; j-- {
		var w [4]byte
		window := append(append(w[:0], before...), b[:j]...)
		for _, sep := range blankLines {
			if bytes.HasSuffix(window, sep) {
				return j
			}
		}
	}
	return -1
}

func (p *paced) Read(b []byte) (int, error) {
	want := max(minRead, p.pending)
	for !p.complete && len(p.buf) < want && p.err == nil {
		p.fill(want - len(p.buf))
	}
	if len(p.buf) == 0 {
		return 0, p.err
	}
	n := copy(b[:min(len(b), want)], p.buf)
	out := p.buf[:n]
	if end := blankLineEnd(p.handed, out); end >= 0 {
		p.pending = n - end
	} else {
		p.pending += n
	}
	p.handed = keepTail(p.handed, out, 2)
	p.buf = p.buf[n:]
	p.complete = p.complete && blankLineEnd(p.handed, p.buf) >= 0
	return n, nil
}

// fill reads at least once more from the input, about size bytes.
func (p *paced) fill(size int) {
	if cap(p.buf)-len(p.buf) < max(size, minRead) {
		grown := make([]byte, len(p.buf), len(p.buf)+max(size, minRead))
		copy(grown, p.buf)
		p.buf = grown
	}
	space := p.buf[len(p.buf):cap(p.buf)]
	n, err := p.r.Read(space)
	if n > 0 {
		if blankLineEnd(lastTwo(p.handed, p.buf), space[:n]) >= 0 {
			p.complete = true
		}
		p.buf = p.buf[:len(p.buf)+n]
		p.last = keepTail(p.last, space[:n], 4)
		if p.onRead != nil {
			p.onRead()
		}
	}
	if err != nil {
		p.err = err
	}
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
