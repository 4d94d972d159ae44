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

	"github.com/phasechat/phasechat/phase/secret"
)

// DefaultStallTimeout is the stall watchdog's timeout that NewClient sets.
const DefaultStallTimeout = 30 * time.Second

// maxErrorBody caps how much of an error response is read.
const maxErrorBody = 64 << 10

// Client talks to an OpenAI-compatible chat completions endpoint. BaseURL is the API root
// (e.g. https://api.openai.com/v1); APIKey is sent as a Bearer token. Secrets (nil: none but
// the key and the base URL's credentials, which are always added) are hidden in everything the
// client hands on: replies, tool arguments, frames and errors. HTTP nil means a client that
// does not follow redirects that would turn the POST into a GET; StallTimeout ends a stream
// that has been silent that long (0: never).
type Client struct {
	BaseURL      string
	APIKey       string
	Secrets      *secret.Set
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
	set := c.secrets()
	body, err := req.body(stream)
	if err != nil {
		return nil, &Error{Message: "The request could not be encoded: " + err.Error(), Cause: err}
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, redactError(set, &Error{
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
		return nil, redactError(set, connectError(c.endpoint(), err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		e := httpError(resp, data)
		if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
			e.Message += ": the server redirects to " + loc + "; use that address as the base URL"
		}
		return nil, redactError(set, e)
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
		if f.failed != nil {
			f.failed = prefixHTTP(resp, f.failed)
		}
		for _, ok := f.next(); ok; _, ok = f.next() {
		}
		set := c.secrets()
		r := f.Result()
		r.Message = RedactMessage(set, r.Message)
		if ctx.Err() != nil && r.Outcome != OutcomeComplete {
			r.Outcome, r.Err = OutcomeStopped, nil
			return r, ctx.Err()
		}
		r.Err = redactError(set, r.Err)
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
