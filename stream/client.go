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
	"time"
)

// DefaultStallTimeout is the stall watchdog's timeout that NewClient sets.
const DefaultStallTimeout = 30 * time.Second

// maxErrorBody caps how much of an error response is read.
const maxErrorBody = 64 << 10

// Client talks to a chat endpoint in one wire format. BaseURL is the API root (e.g.
// https://api.openai.com/v1); Wire chooses the format and so the path below BaseURL (zero:
// a Chat Completions request, whose answer is decoded in the format its first event shows); APIKey is sent as a Bearer token (Anthropic: as x-api-key) and never
// appears in an error; HTTP nil means a client that does not follow redirects that would turn
// the POST into a GET; StallTimeout ends a stream that has been silent that long (0: never).
type Client struct {
	BaseURL      string
	APIKey       string
	Wire         Wire
	HTTP         *http.Client
	StallTimeout time.Duration
}

// NewClient returns a client with the default stall timeout.
func NewClient(baseURL, apiKey string) *Client {
	return &Client{BaseURL: baseURL, APIKey: apiKey, StallTimeout: DefaultStallTimeout}
}

// Request is one chat request. System, when set, is sent where the format puts it (a leading
// system message, Anthropic's system, Responses' instructions). MaxTokens caps the reply
// (0: none, except on Anthropic, which requires one: DefaultAnthropicMaxTokens).
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []Tool
	MaxTokens int
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

func (c *Client) endpoint() string { return strings.TrimRight(c.BaseURL, "/") + c.Wire.Path() }

// requestBody is req in the client's wire format.
func (c *Client) requestBody(req Request, stream bool) ([]byte, error) {
	switch c.Wire.orChat() {
	case WireAnthropic:
		return anthropicRequest(req, stream)
	case WireResponses:
		return responsesRequest(req, stream)
	}
	return req.body(stream)
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP
}

// body is the request's JSON.
func (req Request) body(stream bool) ([]byte, error) {
	msgs := make([]Message, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, Message{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		m.Native = nil // another format's: a Chat Completions server must not get it
		msgs = append(msgs, m)
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
	body, err := c.requestBody(req, stream)
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
		f.wire = c.Wire
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
