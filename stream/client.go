package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/phasechat/phasechat/phase"
)

// DefaultStallTimeout is the stall watchdog's timeout that NewClient sets.
const DefaultStallTimeout = 30 * time.Second

// maxErrorBody caps how much of an error response is read.
const maxErrorBody = 64 << 10

// Client talks to an OpenAI-compatible chat completions endpoint. BaseURL is the API root
// (e.g. https://api.openai.com/v1); APIKey is sent as a Bearer token and never appears in an
// error; HTTP nil means a client that does not follow redirects that would turn the POST into
// a GET; StallTimeout ends a stream that has been silent that long (0: never).
type Client struct {
	BaseURL      string
	APIKey       string
	HTTP         *http.Client
	StallTimeout time.Duration
}

// NewClient returns a client with the default stall timeout.
func NewClient(baseURL, apiKey string) *Client {
	return &Client{BaseURL: baseURL, APIKey: apiKey, StallTimeout: DefaultStallTimeout}
}

// Request is one chat completion request. System, when set, is sent as a leading system
// message.
type Request struct {
	Model    string
	System   string
	Messages []Message
	Tools    []Tool
}

var defaultHTTP = &http.Client{
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.Method != http.MethodPost {
			return http.ErrUseLastResponse // report the redirect rather than re-send as GET
		}
		if len(via) >= 5 {
			return errors.New("stopped after 5 redirects")
		}
		return nil
	},
}

func (c *Client) endpoint() string { return strings.TrimRight(c.BaseURL, "/") + "/chat/completions" }

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP
}

// body is the request's JSON.
func (req Request) body(stream bool) ([]byte, error) {
	msgs := req.Messages
	if req.System != "" {
		msgs = append([]Message{{Role: "system", Content: req.System}}, msgs...)
	}
	type streamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	}
	var opts *streamOptions
	if stream {
		opts = &streamOptions{IncludeUsage: true} // usage arrives in a last chunk
	}
	return json.Marshal(struct {
		Model         string         `json:"model"`
		Messages      []Message      `json:"messages"`
		Tools         []Tool         `json:"tools,omitempty"`
		Stream        bool           `json:"stream"`
		StreamOptions *streamOptions `json:"stream_options,omitempty"`
	}{req.Model, msgs, req.Tools, stream, opts})
}

// post sends the request. Errors are user-facing *Errors with the key redacted.
func (c *Client) post(ctx context.Context, req Request, stream bool) (*http.Response, *Error) {
	body, err := req.body(stream)
	if err != nil {
		return nil, &Error{Message: "The request could not be encoded: " + err.Error(), Cause: err}
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, redactor(c.APIKey).error(&Error{
			Message: fmt.Sprintf("The endpoint %q is not a valid URL", c.endpoint()), Cause: err})
	}
	hr.Header.Set("Content-Type", "application/json")
	if stream {
		hr.Header.Set("Accept", "text/event-stream")
	} else {
		hr.Header.Set("Accept", "application/json")
	}
	if c.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.httpClient().Do(hr)
	if err != nil {
		return nil, redactor(c.APIKey).error(connectError(c.endpoint(), err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		e := httpError(resp, data)
		if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
			e.Message += ": the server redirects to " + loc + "; use that address as the base URL"
		}
		return nil, redactor(c.APIKey).error(e)
	}
	return resp, nil
}

// Stream starts a streaming request; the HTTP exchange happens on the first Next. Cancelling
// ctx stops the stream (outcome stopped). It never returns nil: every failure comes out of
// Next as the end-of-stream Update and out of Result.
func (c *Client) Stream(ctx context.Context, req Request) *Stream {
	sctx, cancel := context.WithCancelCause(ctx)
	return &Stream{c: c, req: req, ctx: sctx, parent: ctx, cancel: cancel}
}

// Stream is one streaming response. Next is for one goroutine; Close may be called from any
// goroutine at any time.
type Stream struct {
	c      *Client
	req    Request
	ctx    context.Context
	parent context.Context
	cancel context.CancelCauseFunc
	watch  *watchdog
	feed   *feed

	mu     sync.Mutex
	body   io.Closer
	closed bool
}

// errClosed is the cancel cause of a Stream closed before its end: a stop.
var errClosed = fmt.Errorf("stream: closed by the caller: %w", context.Canceled)

// Next blocks for the next Update. The last one is the end-of-stream Update (N 0); after it
// Next returns false. It returns promptly once ctx is cancelled or Close is called (outcome
// stopped) and once the stream has been silent for StallTimeout (outcome error).
func (s *Stream) Next() (Update, bool) {
	if s.feed == nil {
		s.open()
	}
	u, ok := s.feed.next()
	if s.feed.ended {
		s.release()
	}
	return s.redact(u), ok
}

// redact hides the API key in what the server may have echoed: error events and frame data.
func (s *Stream) redact(u Update) Update {
	key := redactor(s.c.APIKey)
	if len(key) < 4 {
		return u
	}
	u.Frame.Data = key.text(u.Frame.Data)
	copied := false
	for i, ev := range u.Events {
		if ev.Kind == phase.KindError && strings.Contains(ev.Error, string(key)) {
			if !copied { // the decoder may still hold the slice
				u.Events, copied = append([]phase.Event(nil), u.Events...), true
			}
			u.Events[i].Error = key.text(ev.Error)
		}
	}
	return u
}

// Result is the reply and how the stream ended; valid once Next has returned false (or after
// Close, when no Next call is in flight).
func (s *Stream) Result() Result {
	if s.feed == nil {
		s.feed = failedFeed(errClosed)
		s.feed.next()
	}
	r := s.feed.Result()
	r.Err = redactor(s.c.APIKey).error(r.Err)
	return r
}

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
		s.watch = startWatchdog(s.c.StallTimeout, func() { s.cancel(ErrStall) })
	}
	s.mu.Unlock()
	if closed {
		s.feed = failedFeed(errClosed)
		return
	}
	resp, e := s.c.post(s.ctx, s.req, true)
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
	if s.feed.failed != nil {
		s.feed.failed = s.endCause(prefixHTTP(resp, s.feed.failed))
	}
}

// endCause turns what ended the stream into End's cause: the caller's cancel wins, then the
// stall watchdog, then the error itself.
func (s *Stream) endCause(err error) error {
	switch cause := context.Cause(s.ctx); {
	case cause == nil:
	case errors.Is(cause, ErrStall):
		return stallError(s.c.StallTimeout)
	default:
		return context.Canceled
	}
	if e, ok := err.(*Error); ok {
		return redactor(s.c.APIKey).error(e)
	}
	return err
}

// readError describes an error reading the body; a clean or abrupt end of the body is no
// error (the decoder decides between complete and truncated).
func readError(host string, err error) error {
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return nil
	case errors.Is(err, ErrFrameTooLarge):
		return &Error{Message: msgTooLarge, Cause: err}
	}
	return &Error{Message: "The connection to " + host + " broke mid-stream: " + oneLine(err.Error(), 200), Cause: err}
}

// prefixHTTP says which server answered a 2xx that is not an event stream.
func prefixHTTP(resp *http.Response, err error) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	out := *e
	out.Status = resp.StatusCode
	what := e.Message
	if e.detail != "" {
		what = e.detail
	}
	out.Message = fmt.Sprintf("HTTP %d from %s: %s", resp.StatusCode, resp.Request.URL.Host, what)
	return &out
}

// Complete sends a stream:false request and decodes the whole answer. The error, when not
// nil, is the *Error also in the Result.
func (c *Client) Complete(ctx context.Context, req Request) (Result, error) {
	resp, e := c.post(ctx, req, false)
	if e == nil {
		defer resp.Body.Close()
		host := resp.Request.URL.Host
		f := newFeed(resp.Body, resp.Header.Get("Content-Type"), nil, func(err error) error {
			return readError(host, err)
		})
		if f.failed != nil {
			f.failed = prefixHTTP(resp, f.failed)
		}
		for _, ok := f.next(); ok; _, ok = f.next() {
		}
		r := f.Result()
		if ctx.Err() != nil && r.Outcome != OutcomeComplete {
			r.Outcome, r.Err = OutcomeStopped, nil
			return r, ctx.Err()
		}
		r.Err = redactor(c.APIKey).error(r.Err)
		if r.Err != nil {
			return r, r.Err
		}
		return r, nil
	}
	if ctx.Err() != nil {
		return Result{Outcome: OutcomeStopped}, ctx.Err()
	}
	return Result{Outcome: OutcomeError, Err: e}, e
}
