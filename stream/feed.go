package stream

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/stream/wire"
)

// feed yields the Updates of one response body, SSE or a buffered JSON answer, and ends with
// exactly one end-of-stream Update. The client and replay share it, so a recording replays
// exactly as the live stream went.
type feed struct {
	dec    wire.FrameDecoder // nil until the first frame says which format it is (or wire does)
	wire   wire.Wire         // the format to decode; empty: detect it from the first frame
	fr     *framer
	queue  []wire.Update // a buffered answer's updates, End update last
	result *wire.Result  // a buffered answer's result
	failed error         // end at once with this cause (no body to read)
	text   string        // the start of a body that is neither JSON nor an event stream, on one line
	cause  func(error) error
	ended  bool
	// leaveText makes the decoder leave the reply's text to the caller (wire.FrameDecoder's
	// LeaveText).
	leaveText bool
}

// newFeed reads body as an SSE stream or, when it is JSON, as a complete answer or an error
// object. cause maps the read error that ended the body to End's cause (nil: io.EOF means a
// clean end). onRead is called after every read that returned bytes.
func newFeed(body io.Reader, contentType string, onRead func(), cause func(error) error) *feed {
	f := &feed{cause: cause}
	br := bufio.NewReaderSize(body, minRead)
	switch sniff(contentType, br) {
	case bodyJSON:
		data, err := io.ReadAll(io.LimitReader(heartbeat{br, onRead}, MaxFrameSize+1))
		if err != nil {
			f.failed = f.cause(err)
			break
		}
		if len(data) > MaxFrameSize {
			f.failed = &wire.Error{Message: fmt.Sprintf("The answer is larger than %d MiB, the most a whole (--no-stream) answer may be; ask for a stream instead", MaxFrameSize>>20),
				Cause: ErrFrameTooLarge}
			break
		}
		if r, e := wire.DecodeAnswer(data); e != nil {
			f.failed = e
		} else {
			f.result, f.queue = &r, wire.BufferedUpdates(r)
		}
	case bodyHTML:
		f.failed = &wire.Error{Message: "the server answered with an HTML page, not an event stream", Cause: errHTMLBody}
	case bodyText:
		data, _ := io.ReadAll(io.LimitReader(heartbeat{br, onRead}, maxErrorBody))
		f.text = format.OneLine(string(data), 300)
		words := "the server answered with text, not an event stream: " + f.text
		f.failed = &wire.Error{Message: words, Detail: words, Cause: errTextBody}
	default:
		f.fr = newFramer(br, onRead)
	}
	return f
}

// The causes of a body that is neither an event stream nor JSON.
var (
	errHTMLBody = errors.New("stream: HTML response")
	errTextBody = errors.New("stream: a text answer")
)

// notSSEFile says, for a file rather than a server, that f's body is not an event stream,
// when that is why it failed.
func (f *feed) notSSEFile() {
	e, ok := f.failed.(*wire.Error)
	switch {
	case !ok:
	case errors.Is(e.Cause, errHTMLBody):
		f.failed = &wire.Error{Message: "the file is an HTML page, not an SSE body (a recorded event stream)", Cause: e.Cause}
	case errors.Is(e.Cause, errTextBody):
		words := "the file is not an SSE body (a recorded event stream); it starts: " + f.text
		f.failed = &wire.Error{Message: words, Detail: words, Cause: e.Cause}
	}
}

// heartbeat calls beat after every read that returned bytes.
type heartbeat struct {
	r    io.Reader
	beat func()
}

func (h heartbeat) Read(b []byte) (int, error) {
	n, err := h.r.Read(b)
	if n > 0 && h.beat != nil {
		h.beat()
	}
	return n, err
}

// failedFeed is a feed that ends at once with cause.
func failedFeed(cause error) *feed { return &feed{failed: cause} }

// decoder is the feed's decoder, made for the first frame (nil: no frame arrived).
func (f *feed) decoder(first *wire.Frame) wire.FrameDecoder {
	if f.dec == nil {
		w := f.wire
		if w == "" && first != nil {
			w = wire.DetectWire(*first)
		}
		f.dec = wire.NewFrameDecoder(w)
		if f.leaveText {
			f.dec.LeaveText()
		}
	}
	return f.dec
}

func (f *feed) next() (wire.Update, bool) {
	switch {
	case f.ended:
		return wire.Update{}, false
	case f.queue != nil:
		u := f.queue[0]
		f.queue = f.queue[1:]
		f.ended = len(f.queue) == 0
		return u, true
	case f.failed != nil:
		f.ended = true
		return f.decoder(nil).End(f.failed), true
	case f.dec != nil && f.dec.Ended(): // the format's end event: read nothing more
		f.ended = true
		return f.dec.End(nil), true
	}
	fr, err := f.fr.Next()
	if err == nil {
		return f.decoder(&fr).Frame(fr), true
	}
	f.ended = true
	return f.decoder(nil).End(f.cause(err)), true
}

// stop makes the next update the end of the stream, failed with err, whatever the body still
// holds (read or not).
func (f *feed) stop(err error) {
	f.queue, f.failed = nil, err
}

// ready reports whether next would return without reading the body.
func (f *feed) ready() bool {
	switch {
	case f.ended, f.queue != nil, f.failed != nil, f.dec != nil && f.dec.Ended():
		return true
	}
	return f.fr == nil || f.fr.ready()
}

func (f *feed) Result() wire.Result {
	if f.result != nil {
		return *f.result
	}
	return f.decoder(nil).Result()
}

type bodyKind int

const (
	bodySSE bodyKind = iota
	bodyJSON
	bodyHTML
	bodyText // prose: neither JSON, HTML nor an event stream
)

// sniff decides how to read a body, by the body first and its Content-Type second, since
// servers mislabel: a JSON object is read as JSON (an error object labelled event-stream
// included), an event stream as one (labelled application/json or x-ndjson included), HTML
// as HTML; a body that is none of these is an event stream when labelled so, JSON when
// labelled so (its error then says what is wrong), else prose (bodyText). It only peeks.
func sniff(contentType string, br *bufio.Reader) bodyKind {
	ct := strings.ToLower(contentType)
	byBody := sniffBody(br)
	switch {
	case byBody == bodyJSON || byBody == bodyHTML:
		return byBody
	case byBody == bodySSE:
		return bodySSE
	case strings.Contains(ct, "text/event-stream"):
		return bodySSE
	case strings.Contains(ct, "json"):
		return bodyJSON
	case strings.Contains(ct, "html"):
		return bodyHTML
	}
	return byBody
}

// sniffBody classifies a body by its first bytes, a leading BOM skipped: '{' JSON, '<' HTML,
// nothing at all an event stream. Otherwise it reads the peeked lines as the framer would: a
// line starting with a known field ("data", "event", "id", "retry", with a colon or alone)
// or a ":" comment makes an event stream; unknown fields ("name: value"), prose and blank
// lines are read past. A body that ends within the peek window without a known field is text
// if any line was prose (no colon), else an event stream (its framing reports no event); one
// that fills the window is an event stream, since an event may still follow.
// It only peeks, and decides as soon as a line tells, so a live stream is not held up.
func sniffBody(br *bufio.Reader) bodyKind {
	pos := 0
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		pos = len(bom)
	}
	first, prose := true, false
	for {
		line, next, kind := peekLine(br, pos)
		trimmed := bytes.TrimLeft(line, " \t")
		switch {
		case kind != bodyText:
			return kind
		case first && len(trimmed) > 0 && trimmed[0] == '{':
			return bodyJSON
		case first && len(trimmed) > 0 && trimmed[0] == '<':
			return bodyHTML
		case next == windowFull:
			return bodySSE // an event may follow: the framer reads on
		case next < 0 && !prose && (len(line) == 0 || bytes.IndexByte(line, ':') > 0):
			return bodySSE // no body, or fields only: no event, which the framing reports
		case next < 0:
			return bodyText
		}
		if len(trimmed) > 0 {
			first = false
			prose = prose || bytes.IndexByte(line, ':') < 0
		}
		pos = next
	}
}

// Where peekLine's line ended short of a line end.
const (
	bodyEnded  = -1
	windowFull = -2
)

// sseFields are the fields the framer acts on; a line starting with one, then a colon, or
// holding only its name, is an event stream's.
var sseFields = []string{"data", "event", "id", "retry"}

// peekLine peeks the line starting at pos, a byte at a time so that nothing is awaited that
// the decision does not need. kind is bodySSE as soon as the line is known to be an event
// stream's (a known field or a comment), else bodyText; next is where the following line
// starts, bodyEnded when the body ended in the line, or windowFull when the peek window
// filled before the line did.
func peekLine(br *bufio.Reader, pos int) (line []byte, next int, kind bodyKind) {
	for n := pos + 1; ; n++ {
		if n > minRead {
			b, _ := br.Peek(minRead)
			return b[min(pos, len(b)):], windowFull, bodyText
		}
		b, _ := br.Peek(n)
		line = b[min(pos, len(b)):]
		if len(b) < n {
			return line, bodyEnded, lineKind(line, true)
		}
		switch c := b[n-1]; {
		case c == '\r' || c == '\n':
			line = line[:len(line)-1]
			return line, n, lineKind(line, true)
		case len(line) == 1 && c == ':':
			return line, n, bodySSE
		}
		if k := lineKind(line, false); k == bodySSE {
			return line, n, k
		}
	}
}

// lineKind is bodySSE for a line that starts with a known field and a colon, or (when whole)
// is only a known field's name; else bodyText.
func lineKind(line []byte, whole bool) bodyKind {
	for _, field := range sseFields {
		if bytes.HasPrefix(line, []byte(field+":")) || whole && string(line) == field {
			return bodySSE
		}
	}
	return bodyText
}
