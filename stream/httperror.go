package stream

import (
	"context"
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
	"github.com/phasechat/phasechat/stream/wire"
)

// msgTooLarge is the message of docs/architecture.md, Outcomes, for an event over MaxFrameSize.
const msgTooLarge = "The server sent an event larger than 16 MiB; the stream was stopped"

func stallError(d time.Duration) *wire.Error {
	return &wire.Error{Message: "No data from the server for " + format.WrittenDuration(d), Cause: wire.ErrStall}
}

// connectError describes a request that got no response; it names the URL.
func connectError(endpoint string, err error) *wire.Error {
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
	return &wire.Error{Message: "Could not connect to " + shownEndpoint(endpoint) + ": " + format.OneLine(stripUserinfo(reason), 200), Cause: scrubURL(err, endpoint)}
}

// httpError describes a non-2xx answer: "HTTP 401 from api.openai.com: <the provider's
// message>", with the Retry-After wait in words for 429 and 503.
func httpError(resp *http.Response, body []byte) *wire.Error {
	e := &wire.Error{Status: resp.StatusCode, Cause: fmt.Errorf("stream: HTTP %s", resp.Status)}
	detail := wire.ProviderMessage(body)
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
