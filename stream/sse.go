package stream

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/r3labs/sse/v2"
)

// MaxFrameSize is the largest SSE event accepted, in bytes. A larger event ends the stream
// with ErrFrameTooLarge.
const MaxFrameSize = 16 << 20

// ErrFrameTooLarge is the cause of the error that ends a stream with an event over
// MaxFrameSize.
var ErrFrameTooLarge = errors.New("stream: SSE event larger than 16 MiB")

// Frame is one SSE event: its event name (empty for the default "message") and its data
// lines joined with "\n". The strings own their bytes.
type Frame struct{ Event, Data string }

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
	tail  bool // the last event returned had no terminating blank line
}

func newFramer(body io.Reader, onRead func()) *framer {
	in := &paced{r: body, onRead: onRead}
	return &framer{in: in, r: sse.NewEventStreamReader(in, MaxFrameSize), first: true}
}

// Next returns the next frame. At the end of the input it returns io.EOF; otherwise the
// input's own read error (a cancelled request's, not the io.EOF the reader reports for it),
// or ErrFrameTooLarge.
func (f *framer) Next() (Frame, error) {
	for {
		raw, err := f.read()
		if err != nil {
			return Frame{}, err
		}
		if f.first {
			f.first = false
			raw = bytes.TrimPrefix(raw, bom)
		}
		if fr, ok := parseEvent(raw); ok {
			return fr, nil
		}
	}
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
	f.tail = true
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

// parseEvent reads the fields of one event (its lines, without the blank line that ended
// it). Lines end in CR, LF or CRLF; "field: value" may omit the space; a line starting with
// ':' is a comment; a line with no colon is a field with an empty value. ok is false when the
// event has no data field: such an event is not dispatched.
func parseEvent(raw []byte) (f Frame, ok bool) {
	var (
		data  []byte // the only data line, still in raw
		multi []byte // data lines joined, once there is more than one
		lines int
	)
	for len(raw) > 0 {
		line := raw
		if end, skip := lineEnd(raw); end >= 0 {
			line, raw = raw[:end], raw[end+skip:]
		} else {
			raw = nil
		}
		if len(line) == 0 || line[0] == ':' {
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
		return Frame{}, false
	case lines == 1:
		f.Data = string(data)
	default:
		f.Data = string(multi)
	}
	return f, true
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

// paced is the framer's view of the body. Each Read asks for at most a small amount more than
// the bytes of the event in progress, so the reader's split function, which rescans all
// buffered bytes for a blank line on every call, scans O(event size) per event; because the
// limit grows with the event, a large event is still read in geometrically growing pieces.
// It also records the input's first error (io.EOF at its end) and the last bytes read (to tell
// whether the input ended with a blank line), and calls onRead after every read that returned
// bytes (the stall watchdog's heartbeat).
type paced struct {
	r       io.Reader
	onRead  func()
	pending int // bytes read since the last blank line
	last    [4]byte
	nlast   int
	err     error // the first error the input returned (io.EOF at its end)
}

// minRead is the smallest read size paced asks for.
const minRead = 512

func (p *paced) Read(b []byte) (int, error) {
	if want := max(minRead, p.pending); len(b) > want {
		b = b[:want]
	}
	n, err := p.r.Read(b)
	if n > 0 {
		p.note(b[:n])
		if p.onRead != nil {
			p.onRead()
		}
	}
	if err != nil && p.err == nil {
		p.err = err
	}
	return n, err
}

// note updates pending and last with the bytes just read.
func (p *paced) note(b []byte) {
	end := -1
	for _, sep := range [...]string{"\n\n", "\r\r", "\n\r\n"} {
		if i := bytes.LastIndex(b, []byte(sep)); i >= 0 && i+len(sep) > end {
			end = i + len(sep)
		}
	}
	if end >= 0 {
		p.pending = len(b) - end
	} else {
		p.pending += len(b)
	}
	for _, c := range b[max(0, len(b)-len(p.last)):] {
		if p.nlast == len(p.last) {
			copy(p.last[:], p.last[1:])
			p.nlast--
		}
		p.last[p.nlast] = c
		p.nlast++
	}
}

// endsWithBlankLine reports whether the bytes read so far end with an empty line, i.e. the
// last event was terminated.
func (p *paced) endsWithBlankLine() bool {
	s := string(p.last[:p.nlast])
	for _, end := range [...]string{"\n\n", "\r\r", "\r\n\r\n", "\n\r\n", "\r\n\n"} {
		if len(s) >= len(end) && s[len(s)-len(end):] == end {
			return true
		}
	}
	return p.nlast == 0
}
