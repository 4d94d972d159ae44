package stream

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/r3labs/sse/v2"

	"github.com/phasechat/phasechat/stream/wire"
)

// MaxFrameSize is the largest SSE event accepted, in bytes. A larger event ends the stream
// with ErrFrameTooLarge.
const MaxFrameSize = 16 << 20

// ErrFrameTooLarge is the cause of the error that ends a stream with an event over
// MaxFrameSize.
var ErrFrameTooLarge = errors.New("stream: SSE event larger than 16 MiB")

// framer cuts a byte stream into Frames. sse.EventStreamReader finds the event boundaries;
// parseEvent reads the fields. Comment-only and data-less events are skipped. Frames own
// their bytes: the reader's buffer is reused on every read.
//
// The reader hands over whatever is left at the end as a last event even when no blank line
// ended it; framer keeps it only at a clean EOF, and then sets tail.
type framer struct {
	in    *paced
	r     *sse.EventStreamReader
	first bool // the next event is the first: strip a BOM
	ahead []byte
	rest  []byte // events left in the current raw event (after an empty line inside it)
	end   bool   // the current raw event is the unterminated last one
	tail  bool   // the last frame returned had no terminating blank line

	peeked *peekedFrame // parsed by ready, not yet returned by Next
}

func newFramer(body io.Reader, onRead func()) *framer {
	in := newPaced(body, onRead)
	return &framer{in: in, r: sse.NewEventStreamReader(in, MaxFrameSize), first: true}
}

// Next returns the next frame. At the end of the input it returns io.EOF; otherwise the
// input's own read error (a cancelled request's, not the io.EOF the reader reports for it),
// or ErrFrameTooLarge.
func (f *framer) Next() (wire.Frame, error) {
	if p := f.peeked; p != nil {
		f.peeked = nil
		f.tail = p.tail
		return p.frame, p.err
	}
	for {
		fr, ok, err := f.step()
		if err != nil || ok {
			return fr, err
		}
	}
}

// ready reports whether Next would return without reading the input: a frame, or the end of
// the input, is already buffered. It never reads the input itself: it may parse one buffered
// frame ahead (which Next returns next), and the pacing's blank lines are ones the reader's
// splitter ends an event on, so a buffered event never needs another read.
func (f *framer) ready() bool {
	for f.peeked == nil && f.in.err == nil {
		if len(f.rest) == 0 && f.ahead == nil && f.in.blank < 0 {
			return false
		}
		returned := f.tail
		fr, ok, err := f.step()
		if err != nil || ok {
			f.peeked = &peekedFrame{frame: fr, err: err, tail: f.tail}
		}
		f.tail = returned
	}
	return true
}

// peekedFrame is what ready parsed ahead: Next's next answer, and tail as it was for it.
type peekedFrame struct {
	frame wire.Frame
	err   error
	tail  bool
}

// step reads one raw event (or takes the next one left in the current raw event) and parses
// it; ok is false for an event that is not dispatched (comments only, no data).
func (f *framer) step() (wire.Frame, bool, error) {
	if len(f.rest) == 0 {
		raw, err := f.read()
		if err != nil {
			return wire.Frame{}, false, err
		}
		if f.first {
			f.first = false
			raw = bytes.TrimPrefix(raw, bom)
		}
		f.rest = raw
	}
	fr, ok, rest := parseEvent(f.rest)
	f.rest = rest
	if ok {
		f.tail = f.end && len(rest) == 0
	}
	return fr, ok, nil
}

var bom = []byte("\xEF\xBB\xBF")

// read returns the next raw event. Once the input has ended, the remaining events are all
// buffered, so it reads one ahead to learn whether the event it returns is the last one and
// whether a blank line ended it. An unterminated last event is kept at a clean EOF (recordings
// often lack the final newline) and dropped after a read error (the connection broke or was
// cancelled inside it). Errors are the input's own: the reader reports a cancel as io.EOF.
func (f *framer) read() ([]byte, error) {
	raw := f.ahead
	f.ahead = nil
	if raw == nil {
		ev, err := f.r.ReadEvent()
		if err != nil {
			return nil, f.cause(err)
		}
		raw = ev
	}
	if f.in.err == nil {
		return raw, nil
	}
	raw = bytes.Clone(raw) // the next ReadEvent reuses the scanner's buffer
	next, err := f.r.ReadEvent()
	if err == nil {
		f.ahead = bytes.Clone(next)
		return raw, nil
	}
	if errors.Is(err, bufio.ErrTooLong) || f.in.endsWithBlankLine() {
		return raw, nil
	}
	if f.in.err != io.EOF {
		return nil, f.in.err
	}
	f.end = true
	return raw, nil
}

func (f *framer) cause(err error) error {
	switch {
	case errors.Is(err, bufio.ErrTooLong):
		return ErrFrameTooLarge
	case f.in.err != nil:
		return f.in.err
	}
	return err
}

// parseEvent reads the fields of one event: raw's lines up to its first empty line, which
// dispatches the event; rest is what follows that line (the reader's splitter misses some
// blank-line forms, such as CRLF then CR, so one raw event may hold several). Lines end in
// CR, LF or CRLF; "field: value" may omit the space; a line starting with ':' is a comment; a
// line with no colon is a field with an empty value. ok is false when the event has no data
// field: such an event is not dispatched.
func parseEvent(raw []byte) (f wire.Frame, ok bool, rest []byte) {
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
				rest = raw
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
		return wire.Frame{}, false, rest
	case lines == 1:
		f.Data = string(data)
	default:
		f.Data = string(multi)
	}
	return f, true, rest
}

// lineEnd finds the first line ending in b (CR, LF or CRLF): its index and length, or -1.
func lineEnd(b []byte) (end, skip int) {
	lf := bytes.IndexByte(b, '\n')
	limit := lf
	if lf < 0 {
		limit = len(b)
	}
	if cr := bytes.IndexByte(b[:limit], '\r'); cr >= 0 {
		if cr+1 < len(b) && b[cr+1] == '\n' {
			return cr, 2
		}
		return cr, 1
	}
	return lf, 1
}
