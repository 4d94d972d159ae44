package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/phasechat/phasechat/internal/secret"
	"io"
	"net/http"
	"regexp"
	"sort"
	"sync/atomic"
	"time"
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
	Wire         Wire
	Headers      map[string]string
	Options      Options
	HTTP         *http.Client
	StallTimeout time.Duration
	// KeySource names where APIKey came from ("OPENAI_API_KEY", "the key command of provider
	// x"), so a rejected key's error can say; "" means OPENAI_API_KEY.
	KeySource string

	noStreamOptions atomic.Bool // the server rejected stream_options: never send it again
	noReasoning     atomic.Bool // the server refused reasoning in assistant messages: never send it again
}

// NewClient returns a client with the default stall timeout.
func NewClient(baseURL, apiKey string) *Client {
	return &Client{BaseURL: baseURL, APIKey: apiKey, StallTimeout: DefaultStallTimeout}
}

// Options are a provider's request settings. Nil and zero fields are not sent.
type Options struct {
	StreamOptions   StreamOptionsMode
	MaxTokens       *int
	Temperature     *float64
	ReasoningEffort string
	// ExtraBody is merged into every request's body; a key the request already holds
	// (model, messages, stream, tools, or a setting above) is not replaced.
	ExtraBody map[string]any
}

// StreamOptionsMode says when a streaming request carries stream_options
// {"include_usage": true}, which asks for the usage in a last chunk.
type StreamOptionsMode uint8

const (
	// StreamOptionsAuto sends it; when the server answers 400 or 422 with a body that names
	// stream_options, the request is sent again once without it, and the client never sends
	// it again (the Result's Notice says so, once).
	StreamOptionsAuto StreamOptionsMode = iota
	StreamOptionsAlways
	StreamOptionsNever
)

// NoticeStreamOptions is the Notice of the request that found stream_options rejected.
const NoticeStreamOptions = "This server rejects stream_options, so phasechat no longer sends it this session; token usage shows only if the server reports it anyway."

// Request is one chat completion request. System, when set, is sent as a leading system
// message. Reasoning (in the field the provider sent it in) and tool calls' extra_content
// are sent for the messages after the last user message only — the current turn's tool loop,
// which providers such as DeepSeek and Gemini need back — and dropped from earlier turns.
type Request struct {
	Model    string
	System   string
	Messages []Message
	Tools    []Tool
}

var defaultHTTP = &http.Client{CheckRedirect: checkRedirect(nil)}

func (c *Client) endpoint() string { return joinPath(c.BaseURL, c.Wire.Path()) }

// requestBody is req in the client's wire format; stream_options is Chat Completions' only.
func (c *Client) requestBody(req Request, stream, streamOptions bool) ([]byte, error) {
	var (
		b   []byte
		err error
	)
	switch c.Wire.orChat() {
	case WireAnthropic:
		b, err = anthropicRequest(req, stream, &c.Options)
	case WireResponses:
		b, err = responsesRequest(req, stream, &c.Options)
	default:
		return req.body(stream, streamOptions, !c.noReasoning.Load(), &c.Options)
	}
	if err != nil || len(c.Options.ExtraBody) == 0 {
		return b, err
	}
	return mergeExtra(b, c.Options.ExtraBody)
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

// body is the request's JSON: stream_options only when streamOptions is true, and the current
// turn's reasoning only when sendReasoning is.
func (req Request) body(stream, streamOptions, sendReasoning bool, o *Options) ([]byte, error) {
	msgs := make([]Message, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, Message{Role: "system", Content: req.System})
	}
	current := currentTurn(req.Messages)
	for i, m := range req.Messages {
		m.Native = nil // another format's: a Chat Completions server must not get it
		if i < current {
			m = m.withoutTurnState()
		} else if !sendReasoning {
			m.Reasoning, m.ReasoningField = "", ""
		}
		msgs = append(msgs, m)
	}
	type streamOpts struct {
		IncludeUsage bool `json:"include_usage"`
	}
	var so *streamOpts
	if stream && streamOptions {
		so = &streamOpts{IncludeUsage: true} // usage arrives in a last chunk
	}
	if o == nil {
		o = &Options{}
	}
	b, err := json.Marshal(struct {
		Model           string      `json:"model"`
		Messages        []Message   `json:"messages"`
		Tools           []Tool      `json:"tools,omitempty"`
		Stream          bool        `json:"stream"`
		StreamOptions   *streamOpts `json:"stream_options,omitempty"`
		MaxTokens       *int        `json:"max_tokens,omitempty"`
		Temperature     *float64    `json:"temperature,omitempty"`
		ReasoningEffort string      `json:"reasoning_effort,omitempty"`
	}{req.Model, msgs, req.Tools, stream, so, o.MaxTokens, o.Temperature, o.ReasoningEffort})
	if err != nil || len(o.ExtraBody) == 0 {
		return b, err
	}
	return mergeExtra(b, o.ExtraBody)
}

// mergeExtra adds extra's keys to the JSON object b, in sorted order, skipping keys b has.
func mergeExtra(b []byte, extra map[string]any) ([]byte, error) {
	var have map[string]json.RawMessage
	if err := json.Unmarshal(b, &have); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if _, taken := have[k]; !taken {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := bytes.TrimSuffix(b, []byte("}"))
	for _, k := range keys {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(extra[k])
		if err != nil {
			return nil, fmt.Errorf("extra_body %s: %w", k, err)
		}
		out = append(append(append(append(out, ','), kb...), ':'), vb...)
	}
	return append(out, '}'), nil
}

// currentTurn is the index of the last user message: the messages from there on are the
// current turn's tool loop. 0 when there is none.
func currentTurn(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return i
		}
	}
	return 0
}

// streamOptions reports whether a streaming request carries stream_options now.
func (c *Client) streamOptions() bool {
	switch c.Options.StreamOptions {
	case StreamOptionsNever:
		return false
	case StreamOptionsAlways:
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
func (c *Client) post(ctx context.Context, req Request, stream bool) (resp *http.Response, notice string, e *Error) {
	chat := c.Wire.orChat() == WireChat
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
		case withOptions && c.Options.StreamOptions == StreamOptionsAuto && rejectsStreamOptions(e.Status, body):
			withOptions = false
			if c.noStreamOptions.CompareAndSwap(false, true) {
				say(NoticeStreamOptions)
			}
		case chat && !c.noReasoning.Load() && sendsReasoning(req) && rejectsReasoning(e.Status, body):
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

// sendsReasoning reports whether a Chat Completions request carries reasoning back: an
// assistant message of the current turn with reasoning in a known field.
func sendsReasoning(req Request) bool {
	for _, m := range req.Messages[currentTurn(req.Messages):] {
		if m.ReasoningField != "" && m.Reasoning != "" {
			return true
		}
	}
	return false
}

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
func (c *Client) send(ctx context.Context, req Request, stream, streamOptions bool) (*http.Response, []byte, *Error) {
	body, err := c.requestBody(req, stream, streamOptions)
	if err != nil {
		return nil, nil, &Error{Message: "The request could not be encoded: " + err.Error(), Cause: err}
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, redactError(c.secrets(), &Error{
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
	case c.Wire == WireAnthropic:
		hr.Header.Set("anthropic-version", AnthropicVersion)
		if c.APIKey != "" {
			hr.Header.Set("x-api-key", c.APIKey)
		}
	case c.APIKey != "":
		hr.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.httpClient().Do(hr)
	if err != nil {
		if e := refusedRedirect(err); e != nil {
			return nil, nil, redactError(c.secrets(), e)
		}
		e := connectError(c.endpoint(), err)
		if refused(err) {
			e.retry = RetrySoon
		}
		return nil, nil, redactError(c.secrets(), e)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		e := httpError(resp, data)
		c.advise(e, data)
		if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
			e.Message += ": the server redirects to " + shownEndpoint(loc) + "; use that address as the base URL"
		}
		return nil, data, redactError(c.secrets(), e)
	}
	return resp, nil, nil
}

// Complete sends a stream:false request and decodes the whole answer. The stall timeout
// bounds every wait: for the headers and between any two reads of the body. The error, when
// not nil, is the *Error also in the Result.
func (c *Client) Complete(ctx context.Context, req Request) (Result, error) {
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watch := startWatchdog(c.StallTimeout, func() { cancel(ErrStall) })
	defer watch.stop()
	stalled := func() bool { return errors.Is(context.Cause(cctx), ErrStall) && ctx.Err() == nil }
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
		case stalled() && r.Outcome != OutcomeComplete:
			se := stallError(c.StallTimeout)
			return Result{Message: r.Message, Outcome: OutcomeError, Err: se}, se
		case ctx.Err() != nil && r.Outcome != OutcomeComplete:
			r.Outcome, r.Err = OutcomeStopped, nil
			return r, ctx.Err()
		}
		set := c.secrets()
		r.Message = RedactMessage(set, r.Message)
		r.Err = redactError(set, r.Err)
		if r.Err != nil {
			return r, r.Err
		}
		return r, nil
	}
	if stalled() {
		se := stallError(c.StallTimeout)
		return Result{Outcome: OutcomeError, Err: se}, se
	}
	if ctx.Err() != nil {
		return Result{Outcome: OutcomeStopped}, ctx.Err()
	}
	return Result{Outcome: OutcomeError, Err: e}, e
}
