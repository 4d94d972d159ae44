package stream

import (
	"bytes"
	"errors"
	"io"

	"github.com/phasechat/phasechat/stream/wire"
)

// MaxFrameSize is the largest SSE event accepted, in bytes. A larger event ends the stream
// with ErrFrameTooLarge.
const MaxFrameSize = 16 << 20

// ErrFrameTooLarge is the cause of the error that ends a stream with an event over
// MaxFrameSize.
var ErrFrameTooLarge = errors.New("stream: SSE event larger than 16 MiB")

// minRead is the most the framer reads at a time while events are small.
const minRead = 512

// framer cuts a body into Frames by the SSE rules: lines end in CR, LF or CRLF; an empty line
// ends an event; a BOM that starts the body is skipped; comment-only and data-less events are
// not dispatched. Frames own their bytes: the buffer is reused.
//
// Every byte is searched for line ends once (the search resumes where it stopped when more
// of the body arrives), and once more by parseEvent when its event is whole. Each read asks
// for as much as the unfinished event holds (at least pace, at most what MaxFrameSize
// leaves): small events are read pace bytes at a time, a large one in a logarithmic
// number of reads; no read waits for more than the server sent.
//
// An unterminated last event is kept at a clean EOF (recordings often lack the final
// newline), with tail set, and dropped after a read error (the connection broke or was
// cancelled inside it).
type framer struct {
	r      io.Reader
	onRead func()
	err    error // the body's first read error (io.EOF at its end); nothing is read after it
	pace   int   // the most read at a time while events are small
	stuck  int   // reads in a row that returned nothing and no error

	buf        []byte // what was read and not yet framed is buf[start:end]
	start, end int
	scan       int  // where, from start, the search for the end of the event resumes
	inLine     bool // scan is inside a line that is not empty
	bomSeen    bool // the body's first bytes were checked for a BOM
	tail       bool // the last frame returned had no terminating blank line

	peeked *peekedFrame // parsed by ready, not yet returned by Next
}

func newFramer(body io.Reader, onRead func()) *framer {
	return &framer{r: body, onRead: onRead, pace: minRead, buf: make([]byte, 8*minRead)}
}

// Next returns the next frame. At the end of the input it returns io.EOF; otherwise the
// input's own read error (a cancelled request's included), or ErrFrameTooLarge.
func (f *framer) Next() (wire.Frame, error) {
	if p := f.peeked; p != nil {
		f.peeked = nil
		f.tail = p.tail
		return p.frame, p.err
	}
	for {
		fr, tail, err, more := f.next()
		if !more {
			if err == nil {
				f.tail = tail
			}
			return fr, err
		}
		f.fill()
	}
}

// ready reports whether Next would return without reading the input: a frame, or the end of
// the input, is already buffered. It never reads; it may parse the buffered frame, which Next
// then returns.
func (f *framer) ready() bool {
	if f.peeked != nil {
		return true
	}
	fr, tail, err, more := f.next()
	if more {
		return false
	}
	if err == nil {
		f.peeked = &peekedFrame{frame: fr, tail: tail}
	} else {
		f.peeked = &peekedFrame{frame: fr, err: err, tail: f.tail}
	}
	return true
}

// peekedFrame is what ready parsed ahead: Next's next answer, and tail as it is to be then.
type peekedFrame struct {
	frame wire.Frame
	err   error
	tail  bool
}

var bom = []byte("\xEF\xBB\xBF")

// next is the next answer that the bytes held give: a frame (tail when the body ended before
// its blank line), the input's error or io.EOF, ErrFrameTooLarge; or more when the answer
// needs more of the body.
func (f *framer) next() (fr wire.Frame, tail bool, err error, more bool) {
	if !f.bomSeen {
		held := f.buf[f.start:f.end]
		if len(held) < len(bom) && bytes.HasPrefix(bom, held) && f.err == nil {
			return wire.Frame{}, false, nil, true
		}
		f.bomSeen = true
		if bytes.HasPrefix(held, bom) {
			f.start += len(bom)
		}
	}
	for {
		n := f.eventEnd()
		switch {
		case n > MaxFrameSize || n < 0 && f.end-f.start > MaxFrameSize:
			return wire.Frame{}, false, ErrFrameTooLarge, false
		case n >= 0:
			if fr, ok := f.take(n); ok {
				return fr, false, nil, false
			}
		case f.err == nil:
			return wire.Frame{}, false, nil, true
		case f.err != io.EOF || f.start == f.end:
			f.start = f.end // an event cut by a broken connection is dropped
			return wire.Frame{}, false, f.err, false
		default: // a clean end inside an event: the last one, unterminated
			if fr, ok := f.take(f.end - f.start); ok {
				return fr, true, nil, false
			}
		}
	}
}

// take parses the n bytes held first as one event and drops them; ok is false when the
// event is not dispatched.
func (f *framer) take(n int) (wire.Frame, bool) {
	fr, ok := parseEvent(f.buf[f.start : f.start+n])
	f.start += n
	f.scan, f.inLine = 0, false
	return fr, ok
}

// eventEnd returns the length of the first event held, up to and including the empty line
// that ends it, or -1 when the bytes held end first. An empty line is a line end at the
// start of a line (a CRLF is one line end). A CR that ends a non-empty line as the last byte
// held may be the first half of a CRLF, so the search waits for the next byte; a CR that is
// an empty line ends the event whatever follows it (an LF after it is then an empty line
// that dispatches nothing).
func (f *framer) eventEnd() int {
	b := f.buf[f.start:f.end]
	i := f.scan
	for {
		if !f.inLine {
			if i == len(b) {
				f.scan = i
				return -1
			}
			switch b[i] {
			case '\n':
				return i + 1
			case '\r':
				if i+1 < len(b) && b[i+1] == '\n' {
					return i + 2
				}
				return i + 1
			}
			f.inLine = true
		}
		j := lineBreak(b[i:])
		if j < 0 {
			f.scan = len(b)
			return -1
		}
		j += i
		if b[j] == '\r' {
			if j+1 == len(b) {
				f.scan = j
				return -1
			}
			if b[j+1] == '\n' {
				j++
			}
		}
		i, f.inLine = j+1, false
	}
}

// fill reads once from the input into the buffer, after the bytes held.
func (f *framer) fill() {
	held := f.end - f.start
	want := min(max(f.pace, held), MaxFrameSize+1-held)
	if f.end+want > len(f.buf) {
		buf := f.buf
		if held+want > len(buf) {
			buf = make([]byte, 2*(held+want))
		}
		copy(buf, f.buf[f.start:f.end])
		f.buf, f.start, f.end = buf, 0, held
	}
	n, err := f.r.Read(f.buf[f.end : f.end+want])
	if n > 0 {
		f.end += n
		f.stuck = 0
		if f.onRead != nil {
			f.onRead()
		}
	}
	switch {
	case err != nil:
		f.err = err
	case n == 0:
		if f.stuck++; f.stuck == 100 {
			f.err = io.ErrNoProgress
		}
	}
}

// parseEvent reads the fields of one event: raw's lines up to its first empty line, which
// dispatches the event (nothing after that line is read). Lines end in CR, LF or CRLF;
// "field: value" may omit the space; a line starting with ':' is a comment; a line with no
// colon is a field with an empty value. ok is false when the event has no data field: such an
// event is not dispatched.
func parseEvent(raw []byte) (f wire.Frame, ok bool) {
	var (
		data  []byte // the only data line, still in raw
		multi []byte // data lines joined, once there is more than one
		lines int    // data lines
		seen  bool   // any line of this event
	)
	for len(raw) > 0 {
		line := raw
		if end, skip := lineEnd(raw); end >= 0 {
			line, raw = raw[:end], raw[end+skip:]
		} else {
			raw = nil
		}
		if len(line) == 0 {
			if seen {
				break
			}
			continue
		}
		seen = true
		if line[0] == ':' {
			continue
		}
		name, value := line, []byte(nil)
		if colon := bytes.IndexByte(line, ':'); colon >= 0 {
			name, value = line[:colon], line[colon+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(name) {
		case "data":
			lines++
			switch lines {
			case 1:
				data = value
			case 2:
				multi = append(append(append(multi, data...), '\n'), value...)
			default:
				multi = append(append(multi, '\n'), value...)
			}
		case "event":
			f.Event = string(value)
		}
	}
	switch {
	case lines == 0:
		return wire.Frame{}, false
	case lines == 1:
		f.Data = string(data)
	default:
		f.Data = string(multi)
	}
	return f, true
}

// lineBreak returns the index of the first CR or LF in b, or -1.
func lineBreak(b []byte) int {
	lf := bytes.IndexByte(b, '\n')
	limit := lf
	if lf < 0 {
		limit = len(b)
	}
	if cr := bytes.IndexByte(b[:limit], '\r'); cr >= 0 {
		return cr
	}
	return lf
}

// lineEnd finds the first line ending in b (CR, LF or CRLF): its index and length, or -1.
func lineEnd(b []byte) (end, skip int) {
	i := lineBreak(b)
	if i >= 0 && b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
		return i, 2
	}
	return i, 1
}
