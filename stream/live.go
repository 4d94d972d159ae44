package stream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"syscall"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/stream/wire"
)

// Stream starts a streaming request; the HTTP exchange happens on the first Next. Cancelling
// ctx stops the stream (outcome stopped). It never returns nil: every failure comes out of
// Next as the end-of-stream Update and out of Result.
func (c *Client) Stream(ctx context.Context, req wire.Request) *Stream {
	sctx, cancel := context.WithCancelCause(ctx)
	set := c.secrets()
	return &Stream{c: c, req: req, ctx: sctx, cancel: cancel, set: set, red: wire.NewUpdateRedactor(set)}
}

// Stream is one streaming response. Next is for one goroutine; Close may be called from any
// goroutine at any time.
type Stream struct {
	c      *Client
	req    wire.Request
	ctx    context.Context // the caller's, with our cancel (Close, the stall watchdog)
	cancel context.CancelCauseFunc
	watch  *watchdog
	feed   *feed
	notice string // the request's Notice (see Result)
	set    *secret.Set
	red    *wire.UpdateRedactor

	size      int64 // bytes of text, reasoning and arguments so far
	tooLarge  bool  // size passed the limit: the stream was stopped
	leaveText bool

	mu     sync.Mutex
	body   io.Closer
	closed bool
}

// errClosed is the cancel cause of a Stream closed before its end: a stop.
var errClosed = fmt.Errorf("stream: closed by the caller: %w", context.Canceled)

// Next blocks for the next Update. The last one is the end-of-stream Update (N 0); after it
// Next returns false. It returns promptly once ctx is cancelled or Close is called (outcome
// stopped) and once the stream has been silent for StallTimeout (outcome error).
func (s *Stream) Next() (wire.Update, bool) {
	if s.feed == nil {
		s.open()
	} else if s.watch != nil {
		s.watch.wait()
	}
	u, ok := s.feed.next()
	if s.watch != nil {
		s.watch.away()
	}
	if s.feed.ended {
		s.release()
	}
	s.countReply(u)
	return s.red.Update(u, s.feed.ended && ok), ok
}

// Ready reports whether Next would return at once, without waiting for the server: the next
// update (or the end of the stream) is already buffered. It is false before the request has
// been sent. Like Next it is for the one goroutine that reads the stream; silence while it
// waits (see framer.ready) counts toward the stall timeout as it does in Next.
func (s *Stream) Ready() bool {
	if s.feed == nil {
		return false
	}
	if s.watch != nil {
		s.watch.wait()
		defer s.watch.away()
	}
	return s.feed.ready()
}

// countReply adds u's text, reasoning, argument and kept native bytes to the reply's size and
// stops the stream once it passes the client's limit; what arrived until then is kept.
func (s *Stream) countReply(u wire.Update) {
	s.size += int64(u.Kept)
	for _, ev := range u.Events {
		s.size += int64(len(ev.Delta))
	}
	for _, c := range u.Calls {
		s.size += int64(len(c.ArgsTextDelta))
	}
	if s.size > s.c.maxReply() && !s.tooLarge {
		s.tooLarge = true
		s.cancel(ErrReplyTooLarge)
		if !s.feed.ended {
			s.feed.stop(s.endCause(nil)) // frames already read must not go on past the limit
		}
	}
}

// Result is the reply and how the stream ended. Called before Next has returned false, it
// stops the stream first (outcome stopped, unless it had already ended otherwise), so a
// Result is never of a stream still running. Do not call it while a Next call is in flight.
func (s *Stream) Result() wire.Result {
	if s.feed == nil || !s.feed.ended {
		s.Close()
		for _, ok := s.Next(); ok; _, ok = s.Next() {
		}
	}
	r := s.feed.Result()
	r.Message = wire.RedactMessage(s.set, r.Message)
	r.Err = wire.RedactError(s.set, r.Err)
	r.Notice = s.notice
	return r
}

// LeaveText is for a caller that gathers the reply's text and reasoning from the updates
// itself, as the chat engine does: Result's Message then holds its calls and native reasoning
// but none of that text (see wire.FrameDecoder), so a streaming reply is not held twice. Call
// it before the first Next.
func (s *Stream) LeaveText() { s.leaveText = true }

// Close stops the stream if it is still running and releases its connection and timer. No
// goroutine of the stream outlives it.
func (s *Stream) Close() {
	s.cancel(errClosed)
	s.release()
}

func (s *Stream) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watch != nil {
		s.watch.stop()
	}
	if s.body != nil {
		s.body.Close()
		s.body = nil
	}
	s.closed = true
}

func (s *Stream) open() {
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.watch = startWatchdog(s.c.StallTimeout, func() { s.cancel(wire.ErrStall) })
	}
	s.mu.Unlock()
	if closed {
		s.feed = failedFeed(errClosed)
		return
	}
	resp, notice, e := s.c.post(s.ctx, s.req, true)
	s.notice = notice
	if e != nil {
		s.feed = failedFeed(s.endCause(e))
		return
	}
	s.mu.Lock()
	s.body = resp.Body
	s.mu.Unlock()
	s.watch.touch()
	host := resp.Request.URL.Host
	s.feed = newFeed(resp.Body, resp.Header.Get("Content-Type"), s.watch.touch, func(err error) error {
		return s.endCause(readError(host, err))
	})
	s.feed.wire, s.feed.leaveText = s.c.Wire, s.leaveText
	if s.feed.failed != nil {
		s.feed.failed = s.endCause(prefixHTTP(resp, s.feed.failed))
	}
}

// endCause turns what ended the stream into End's cause: the caller's cancel wins, then the
// stall watchdog, then the error itself.
func (s *Stream) endCause(err error) error {
	switch cause := context.Cause(s.ctx); {
	case cause == nil:
	case errors.Is(cause, wire.ErrStall):
		return stallError(s.c.StallTimeout)
	case errors.Is(cause, ErrReplyTooLarge):
		return &wire.Error{Message: fmt.Sprintf("The reply passed %d MiB, the most one reply may be, and was stopped; what arrived is kept (raise the limit with --max-reply)", s.c.maxReply()>>20), Cause: ErrReplyTooLarge}
	default:
		return context.Canceled
	}
	if e, ok := err.(*wire.Error); ok {
		return wire.RedactError(s.set, e)
	}
	return err
}

// readError describes an error reading the body; a clean or abrupt end of the body is no
// error (the decoder decides between complete and truncated).
func readError(host string, err error) error {
	switch {
	case err == io.EOF:
		return nil
	case errors.Is(err, ErrFrameTooLarge):
		return &wire.Error{Message: msgTooLarge, Cause: err}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return &wire.Error{Message: "The connection to " + host + " was reset before the reply finished",
			Cause: fmt.Errorf("%w: %w", wire.ErrConnectionDropped, err)}
	}
	return &wire.Error{Message: "The connection to " + host + " broke mid-stream: " + format.OneLine(err.Error(), 200),
		Cause: fmt.Errorf("%w: %w", wire.ErrConnectionDropped, err)}
}

// prefixHTTP says which server answered a 2xx that is not an event stream.
func prefixHTTP(resp *http.Response, err error) error {
	e, ok := err.(*wire.Error)
	if !ok {
		return err
	}
	out := *e
	out.Status = resp.StatusCode
	what := e.Message
	if e.Detail != "" {
		what = e.Detail
	}
	out.Message = fmt.Sprintf("HTTP %d from %s: %s", resp.StatusCode, resp.Request.URL.Host, what)
	return &out
}
