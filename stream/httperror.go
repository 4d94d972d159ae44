package stream

import (
	"context"
	"errors"
	"fmt"
	"github.com/phasechat/phasechat/stream/wire"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// msgTooLarge is the message of docs/architecture.md, Outcomes, for an event over MaxFrameSize.
const msgTooLarge = "The server sent an event larger than 16 MiB; the stream was stopped"

func stallError(d time.Duration) *wire.Error {
	return &wire.Error{Message: "No data from the server for " + naturalDuration(d), Cause: wire.ErrStall}
}

// naturalDuration formats d the way people write it: 500ms, 2s, 30s, 1m30s, 2m, 1h5m.
func naturalDuration(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	var b strings.Builder
	for _, part := range []struct {
		n    int
		unit string
	}{{h, "h"}, {m, "m"}, {s, "s"}} {
		if part.n > 0 {
			b.WriteString(strconv.Itoa(part.n) + part.unit)
		}
	}
	return b.String()
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
	return &wire.Error{Message: "Could not connect to " + shownEndpoint(endpoint) + ": " + oneLine(stripUserinfo(reason), 200), Cause: scrubURL(err, endpoint)}
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
		strings.Contains(d, naturalDuration(wait))
}

// bodySummary says what a body without a recognisable error object was.
func bodySummary(contentType string, body []byte) string {
	if looksLikeHTML(contentType, body) {
		return "the server answered with an HTML page, not an event stream"
	}
	if text := oneLine(string(body), 200); text != "" {
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
	return naturalDuration(d)
}

// oneLine collapses whitespace runs (newlines included) to single spaces and cuts s to at most
// limit runes, marking a cut with "…".
func oneLine(s string, limit int) string {
	s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit]) + "…"
}
