package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sync/atomic"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/stream/wire"
)

// DefaultMaxReply is the largest reply a client takes when Client.MaxReply is 0.
const DefaultMaxReply = 32 << 20

// ErrReplyTooLarge is the cause of the error that stops a reply past Client.MaxReply.
var ErrReplyTooLarge = errors.New("stream: the reply passed the size limit")

func (c *Client) maxReply() int64 {
	if c.MaxReply > 0 {
		return c.MaxReply
	}
	return DefaultMaxReply
}

// DefaultStallTimeout is the stall watchdog's timeout that NewClient sets.
const DefaultStallTimeout = 30 * time.Second

// maxErrorBody caps how much of an error response is read.
const maxErrorBody = 64 << 10

// Client talks to a chat endpoint in one wire format. BaseURL is the API root (e.g.
// https://api.openai.com/v1); Wire chooses the format and so the path below BaseURL (zero: a
// Chat Completions request, whose answer is decoded in the format its first event shows);
// APIKey is sent as a Bearer token (Anthropic: as x-api-key) and never appears in an error;
// Headers are sent with every request; Options shape every request's body; HTTP nil
// means a client that does not follow redirects that would turn the POST into a GET;
// StallTimeout ends a stream that has been silent that long (0: never). A Client remembers,
// for its lifetime, that its server rejects stream_options (see StreamOptionsAuto); it is
// safe for concurrent use.
//
// Secrets (nil: none but the key, the Headers' values and the base URL's credentials, which
// are always added) are hidden in everything the client hands on: replies, tool arguments,
// frames and errors.
type Client struct {
	BaseURL string
	APIKey  string
	Secrets *secret.Set
	// MaxReply caps one reply's text, reasoning and arguments, in bytes; a stream passing
	// it is stopped with an error that keeps what arrived. 0 means DefaultMaxReply.
	MaxReply     int64
	Wire         wire.Wire
	Headers      map[string]string
	Options      wire.Options
	HTTP         *http.Client
	StallTimeout time.Duration
	// KeySource names where APIKey came from ("OPENAI_API_KEY", "the key command of provider
	// x"), so a rejected key's error can say; "" means OPENAI_API_KEY.
	KeySource string
	// NoSuchModel, when set, is what an answer that the server has no such model (HTTP 404,
	// or the code model_not_found) says instead of the server's words: why the model's name
	// was likely meant otherwise (a PROVIDER/MODEL whose provider is not configured).
	NoSuchModel string

	noStreamOptions atomic.Bool // the server rejected stream_options: never send it again
	noReasoning     atomic.Bool // the server refused reasoning in assistant messages: never send it again
}

// NewClient returns a client with the default stall timeout.
func NewClient(baseURL, apiKey string) *Client {
	return &Client{BaseURL: baseURL, APIKey: apiKey, StallTimeout: DefaultStallTimeout}
}

// NoticeStreamOptions is the Notice of the request that found stream_options rejected.
const NoticeStreamOptions = "This server rejects stream_options, so phasechat no longer sends it this session; token usage shows only if the server reports it anyway."

var defaultHTTP = &http.Client{CheckRedirect: checkRedirect(nil)}

func (c *Client) endpoint() string { return joinPath(c.BaseURL, c.Wire.Path()) }

// requestBody is req in the client's wire format; stream_options is Chat Completions' only.
func (c *Client) requestBody(req wire.Request, stream, streamOptions bool) ([]byte, error) {
	return wire.Encode(c.Wire, req, stream, streamOptions, !c.noReasoning.Load(), &c.Options)
}

// httpClient is c.HTTP (or the default) with the redirect policy of checkRedirect in front of
// its own.
func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		hc := *c.HTTP
		hc.CheckRedirect = checkRedirect(c.HTTP.CheckRedirect)
		return &hc
	}
	return defaultHTTP
}

// streamOptions reports whether a streaming request carries stream_options now.
func (c *Client) streamOptions() bool {
	switch c.Options.StreamOptions {
	case wire.StreamOptionsNever:
		return false
	case wire.StreamOptionsAlways:
		return true
	}
	return !c.noStreamOptions.Load()
}

// rejectsStreamOptions reports whether an error answer is a server refusing stream_options.
func rejectsStreamOptions(status int, body []byte) bool {
	return (status == http.StatusBadRequest || status == http.StatusUnprocessableEntity) &&
		bytes.Contains(bytes.ToLower(body), []byte("stream_options"))
}

// post sends the request. Errors are user-facing *Errors with the key redacted. notice is
// NoticeStreamOptions when this request found that the server rejects stream_options (and
// was sent again without it), else "".
func (c *Client) post(ctx context.Context, req wire.Request, stream bool) (resp *http.Response, notice string, e *wire.Error) {
	chat := c.Wire.OrChat() == wire.WireChat
	withOptions := stream && chat && c.streamOptions()
	resp, body, e := c.send(ctx, req, stream, withOptions)
	say := func(n string) {
		if notice != "" {
			notice += " "
		}
		notice += n
	}
	for retries := 0; e != nil && retries < 2; retries++ {
		switch {
		case withOptions && c.Options.StreamOptions == wire.StreamOptionsAuto && rejectsStreamOptions(e.Status, body):
			withOptions = false
			if c.noStreamOptions.CompareAndSwap(false, true) {
				say(NoticeStreamOptions)
			}
		case chat && !c.noReasoning.Load() && wire.SendsReasoning(req) && rejectsReasoning(e.Status, body):
			if c.noReasoning.CompareAndSwap(false, true) {
				say(NoticeReasoning)
			}
		default:
			return resp, notice, e
		}
		resp, body, e = c.send(ctx, req, stream, withOptions)
	}
	return resp, notice, e
}

// NoticeReasoning is the Notice of the request that found the server refusing reasoning sent
// back in assistant messages (Groq: "property 'reasoning' is unsupported").
const NoticeReasoning = "This server refuses reasoning sent back with tool calls, so phasechat no longer sends it this session."

// reasoningField finds a reasoning field's name as a word of its own (not reasoning_effort).
var reasoningField = regexp.MustCompile(`(?:^|[^a-z_])reasoning(?:_content)?(?:[^a-z_]|$)`)

// rejectsReasoning reports whether an error answer refuses a reasoning field as unknown, as
// opposed to asking for it (DeepSeek's "Missing `reasoning_content`").
func rejectsReasoning(status int, body []byte) bool {
	if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity {
		return false
	}
	b := bytes.ToLower(body)
	names := reasoningField.Match(b)
	if !names {
		return false
	}
	for _, asks := range []string{"missing", "required", "must be passed", "must be provided"} {
		if bytes.Contains(b, []byte(asks)) {
			return false
		}
	}
	for _, refuses := range []string{"unsupported", "not supported", "unknown", "unrecognized", "extra", "not permitted", "not allowed", "additional properties"} {
		if bytes.Contains(b, []byte(refuses)) {
			return true
		}
	}
	return false
}

// send makes one HTTP exchange. On an error answer it also returns the body read.
func (c *Client) send(ctx context.Context, req wire.Request, stream, streamOptions bool) (*http.Response, []byte, *wire.Error) {
	if err := wire.CheckAttachments(c.Wire, req.Messages); err != nil {
		return nil, nil, &wire.Error{Message: "This request cannot be sent: " + err.Error() + ".", Cause: err}
	}
	body, err := c.requestBody(req, stream, streamOptions)
	if err != nil {
		return nil, nil, &wire.Error{Message: "The request could not be encoded: " + err.Error(), Cause: err}
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, wire.RedactError(c.secrets(), &wire.Error{
			Message: fmt.Sprintf("The endpoint %q is not a valid URL", shownEndpoint(c.endpoint())), Cause: scrubURL(err, c.endpoint())})
	}
	for k, v := range c.Headers {
		hr.Header.Set(k, v)
	}
	hr.Header.Set("Content-Type", "application/json")
	if stream {
		hr.Header.Set("Accept", "text/event-stream")
	} else {
		hr.Header.Set("Accept", "application/json")
	}
	switch {
	case c.Wire == wire.WireAnthropic:
		hr.Header.Set("anthropic-version", wire.AnthropicVersion)
		if c.APIKey != "" {
			hr.Header.Set("x-api-key", c.APIKey)
		}
	case c.APIKey != "":
		hr.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.httpClient().Do(hr)
	if err != nil {
		if e := refusedRedirect(err); e != nil {
			return nil, nil, wire.RedactError(c.secrets(), e)
		}
		e := connectError(c.endpoint(), err)
		if refused(err) {
			e.Helps = wire.RetrySoon
		}
		return nil, nil, wire.RedactError(c.secrets(), e)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		e := httpError(resp, data)
		c.advise(e, data)
		if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
			e.Message += ": the server redirects to " + shownEndpoint(loc) + "; use that address as the base URL"
		}
		return nil, data, wire.RedactError(c.secrets(), e)
	}
	return resp, nil, nil
}

// Complete sends a stream:false request and decodes the whole answer. The stall timeout
// bounds every wait: for the headers and between any two reads of the body. The error, when
// not nil, is the *Error also in the Result.
func (c *Client) Complete(ctx context.Context, req wire.Request) (wire.Result, error) {
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watch := startWatchdog(c.StallTimeout, func() { cancel(wire.ErrStall) })
	defer watch.stop()
	stalled := func() bool { return errors.Is(context.Cause(cctx), wire.ErrStall) && ctx.Err() == nil }
	resp, _, e := c.post(cctx, req, false)
	if e == nil {
		defer resp.Body.Close()
		watch.touch()
		host := resp.Request.URL.Host
		f := newFeed(resp.Body, resp.Header.Get("Content-Type"), watch.touch, func(err error) error {
			return readError(host, err)
		})
		f.wire = c.Wire
		if f.failed != nil {
			f.failed = prefixHTTP(resp, f.failed)
		}
		for _, ok := f.next(); ok; _, ok = f.next() {
		}
		r := f.Result()
		switch {
		case stalled() && r.Outcome != wire.OutcomeComplete:
			se := stallError(c.StallTimeout)
			return wire.Result{Message: r.Message, Outcome: wire.OutcomeError, Err: se}, se
		case ctx.Err() != nil && r.Outcome != wire.OutcomeComplete:
			r.Outcome, r.Err = wire.OutcomeStopped, nil
			return r, ctx.Err()
		}
		set := c.secrets()
		r.Message = wire.RedactMessage(set, r.Message)
		r.Err = wire.RedactError(set, r.Err)
		if r.Err != nil {
			return r, r.Err
		}
		return r, nil
	}
	if stalled() {
		se := stallError(c.StallTimeout)
		return wire.Result{Outcome: wire.OutcomeError, Err: se}, se
	}
	if ctx.Err() != nil {
		return wire.Result{Outcome: wire.OutcomeStopped}, ctx.Err()
	}
	return wire.Result{Outcome: wire.OutcomeError, Err: e}, e
}
