package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/phasechat/phasechat/internal/format"
)

// Error is how a stream failed. Message is what the user is told, in words they can act on
// (never containing the API key); Cause is the underlying error, for logs and errors.Is.
// Status is the HTTP status when the server answered with one, RetryAfter the wait a 429 or
// 503 asked for.
type Error struct {
	Message    string
	Cause      error
	Status     int
	RetryAfter time.Duration

	detail string     // the server's own words, for a caller that adds context to Message
	retry  RetryHelps // see Retry
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Cause }

// Messages of docs/architecture.md, Outcomes.
const (
	msgTruncated = "The server closed the stream before finishing (no [DONE])."
	msgTooLarge  = "The server sent an event larger than 16 MiB; the stream was stopped"
)

// ErrStall is the cause of the error that ends a stream silent for longer than StallTimeout.
var ErrStall = errors.New("stream: no data within the stall timeout")

// ErrConnectionDropped is the cause of the error that ends a stream whose connection broke
// (reset, or cut in the middle of the body) before the reply finished.
var ErrConnectionDropped = errors.New("stream: the connection dropped mid-stream")

// ErrTruncated is the cause of a truncated stream's error.
var ErrTruncated = errors.New("stream: the stream ended without finish_reason or [DONE]")

// ErrUnsupportedFormat is the cause of the error for a stream in a wire format other than
// OpenAI chat completions.
var ErrUnsupportedFormat = errors.New("stream: unsupported wire format")

func stallError(d time.Duration) *Error {
	return &Error{Message: "No data from the server for " + format.WrittenDuration(d), Cause: ErrStall}
}

// serverError is an error object the server sent inside a stream (an `event: error` record
// or a chunk with a top-level "error").
func serverError(raw []byte) *Error {
	detail := providerMessage(raw)
	if detail == "" && !json.Valid(raw) {
		detail = format.OneLine(string(raw), 300)
	}
	msg := "The server sent an error"
	if detail != "" {
		msg += ": " + detail
	}
	return &Error{Message: msg, detail: detail,
		Cause: fmt.Errorf("stream: error from the server: %s", format.OneLine(string(raw), 500))}
}

// connectError describes a request that got no response; it names the URL.
func connectError(endpoint string, err error) *Error {
	var (
		urlErr *url.Error
		dnsErr *net.DNSError
	)
	reason := err.Error()
	if errors.As(err, &urlErr) {
		reason = urlErr.Err.Error()
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		reason = "connection refused (is the server running?)"
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		reason = "no such host " + dnsErr.Name
	case errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err):
		reason = "timed out"
	}
	return &Error{Message: "Could not connect to " + shownEndpoint(endpoint) + ": " + format.OneLine(stripUserinfo(reason), 200), Cause: scrubURL(err, endpoint)}
}

// httpError describes a non-2xx answer: "HTTP 401 from api.openai.com: <the provider's
// message>", with the Retry-After wait in words for 429 and 503.
func httpError(resp *http.Response, body []byte) *Error {
	e := &Error{Status: resp.StatusCode, Cause: fmt.Errorf("stream: HTTP %s", resp.Status)}
	detail := providerMessage(body)
	if detail == "" {
		detail = bodySummary(resp.Header.Get("Content-Type"), body)
	}
	e.Message = fmt.Sprintf("HTTP %d from %s", resp.StatusCode, resp.Request.URL.Host)
	if detail != "" {
		e.Message += ": " + detail
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		if wait, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			e.RetryAfter = wait
			if !mentionsWait(detail, wait) {
				e.Message = strings.TrimRight(e.Message, ". ") + "; retry after " + waitText(wait)
			}
		}
	}
	return e
}

// mentionsWait reports whether the server's own words already say how long to wait (OpenAI:
// "Please try again in 20s."), so the message does not say it twice.
func mentionsWait(detail string, wait time.Duration) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "try again in") || strings.Contains(d, "retry after") ||
		strings.Contains(d, format.WrittenDuration(wait))
}

// bodySummary says what a body without a recognisable error object was.
func bodySummary(contentType string, body []byte) string {
	if looksLikeHTML(contentType, body) {
		return "the server answered with an HTML page, not an event stream"
	}
	if text := format.OneLine(string(body), 200); text != "" {
		return text
	}
	return ""
}

func looksLikeHTML(contentType string, body []byte) bool {
	if strings.Contains(contentType, "html") {
		return true
	}
	head := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 64)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// maxRetryAfter is the longest Retry-After taken as given; a longer one (or one that does not
// fit a duration) is read as this long and said as "a long time (over a day)".
const maxRetryAfter = 24 * time.Hour

// retryAfter reads a Retry-After header: delay-seconds or an HTTP date, at most maxRetryAfter.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if isDigits(v) { // delay-seconds; too many digits for an int64 is very long too
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter + time.Second, true
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		if t.After(now.Add(maxRetryAfter)) {
			return maxRetryAfter + time.Second, true
		}
		return max(0, t.Sub(now).Round(time.Second)), true
	}
	return 0, false
}

func isDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// waitText says a Retry-After wait in words: "20s", "1h5m", or "a long time (over a day)".
func waitText(d time.Duration) string {
	if d > maxRetryAfter {
		return "a long time (over a day)"
	}
	return format.WrittenDuration(d)
}

// providerMessage extracts the human message from an error body or error object: OpenAI,
// Azure, Groq, Anthropic and llama.cpp {"error":{"message"}}, {"error":"text"}, vLLM
// {"message"}, FastAPI {"detail"}; OpenRouter's metadata.raw (the upstream provider's own
// words) is appended. It returns "" when there is nothing to show.
func providerMessage(raw []byte) string {
	var list []json.RawMessage // Google's APIs wrap the error object in an array
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' && json.Unmarshal(t, &list) == nil && len(list) > 0 && len(list[0]) > 0 && list[0][0] == '{' {
		return providerMessage(list[0])
	}
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message wireString      `json:"message"`
		Detail  wireString      `json:"detail"`
	}
	if json.Unmarshal(raw, &body) != nil {
		var s wireString // a bare JSON string is the message
		if json.Valid(raw) {
			_ = s.UnmarshalJSON(raw)
		}
		return format.OneLine(s.S, 500)
	}
	if len(body.Error) > 0 && body.Error[0] == '{' {
		var obj struct {
			Message  wireString      `json:"message"`
			Code     json.RawMessage `json:"code"`
			Type     wireString      `json:"type"`
			Metadata struct {
				Raw          wireString `json:"raw"`
				ProviderName wireString `json:"provider_name"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(body.Error, &obj)
		msg := obj.Message.S
		if raw := obj.Metadata.Raw.S; raw != "" && raw != msg {
			if name := obj.Metadata.ProviderName.S; name != "" {
				raw = name + ": " + raw
			}
			msg = strings.TrimRight(msg, ". ") + " (" + raw + ")"
		}
		if msg == "" && obj.Type.S != "" {
			msg = obj.Type.S
		}
		if msg == "" && len(obj.Code) > 0 && string(obj.Code) != "null" {
			msg = "error code " + strings.Trim(string(obj.Code), `"`)
		}
		return format.OneLine(msg, 500)
	}
	var s wireString
	_ = s.UnmarshalJSON(body.Error)
	for _, m := range []string{s.S, body.Message.S, body.Detail.S} {
		if m != "" {
			return format.OneLine(m, 500)
		}
	}
	return ""
}
