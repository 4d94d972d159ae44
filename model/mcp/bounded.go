package mcp

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync/atomic"

	"github.com/phasechat/phasechat/internal/safefile"
)

// MaxMessageSize bounds one message from an HTTP MCP server: a JSON answer whole, or one event
// of an event stream (a stream that stays open for hours may carry many). A larger one is
// refused with an error naming the bound, read no further, and never held in memory.
const MaxMessageSize = 16 << 20

// boundBody is resp's body, failing once a message in it passes MaxMessageSize.
// oversized, when not nil, is set at the refusal.
func boundBody(resp *http.Response, oversized *atomic.Bool) io.ReadCloser {
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return &boundedBody{ReadCloser: resp.Body, events: media == "text/event-stream", limit: MaxMessageSize, blank: true, oversized: oversized}
}

// boundedBody counts the bytes of the current message: for an event stream, since the last
// empty line (the end of an event); otherwise since the start.
type boundedBody struct {
	io.ReadCloser
	events bool
	limit  int
	size   int  // bytes of the current message
	blank  bool // an event stream's current line has had no byte but '\r' yet
	err    error

	oversized *atomic.Bool
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.ReadCloser.Read(p)
	for i, c := range p[:n] {
		b.size++
		if b.events {
			switch c {
			case '\n':
				if b.blank {
					b.size = 0 // an empty line ends the event
				}
				b.blank = true
				continue
			case '\r':
				continue
			}
			b.blank = false
		}
		if b.size > b.limit {
			b.err = fmt.Errorf("an answer from the MCP server is larger than %s, %w to read", safefile.Size(int64(b.limit)), safefile.ErrTooLarge)
			if b.oversized != nil {
				b.oversized.Store(true)
			}
			return i, b.err
		}
	}
	return n, err
}
