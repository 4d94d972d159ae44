package stream

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/stream/wire"
)

// maxRedirects bounds how many redirects a request follows.
const maxRedirects = 5

// redirectRefused is why a redirect was not followed: it leads to another origin (scheme,
// host or port), where the key and the configured headers must not go, or down from https to
// plain http.
type redirectRefused struct {
	from, to  *url.URL
	downgrade bool
}

func (r *redirectRefused) Error() string {
	if r.downgrade {
		return fmt.Sprintf("the server at %s redirected to plain http (%s); phasechat refuses to send the key unencrypted", shownURL(r.from), shownURL(r.to))
	}
	return fmt.Sprintf("the server at %s redirected to another address (%s); phasechat does not send the key anywhere but the configured endpoint — if you trust it, use that address as the base URL", shownURL(r.from), shownURL(r.to))
}

// checkRedirect is the redirect policy of every request: a POST is followed only to the same
// scheme, host and port as the first request (Go's own policy keeps Authorization for the same
// host on any port and scheme, and other headers everywhere); a redirect that would turn the
// POST into a GET is reported, not followed. next, when set, is consulted after these checks.
func checkRedirect(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		switch {
		case first.Scheme == "https" && req.URL.Scheme != "https":
			return &redirectRefused{from: first, to: req.URL, downgrade: true}
		case !sameOrigin(first, req.URL):
			return &redirectRefused{from: first, to: req.URL}
		case req.Method != via[0].Method:
			return http.ErrUseLastResponse // report the redirect rather than re-send as GET
		case len(via) >= maxRedirects:
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
}

// sameOrigin reports whether a and b have the same scheme, host and port (a missing port being
// the scheme's default).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// refusedRedirect returns the user-facing error for a request that stopped at a redirect it
// refused, or nil when err is something else.
func refusedRedirect(err error) *wire.Error {
	var r *redirectRefused
	if !errors.As(err, &r) {
		return nil
	}
	msg := r.Error()
	return &wire.Error{Message: strings.ToUpper(msg[:1]) + msg[1:], Cause: err}
}

// shownURL is a URL as messages show it: without user info and without the values of
// credential-like query parameters.
func shownURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		for name := range q {
			if secret.CredentialParam(name) {
				q.Set(name, secret.Redacted)
			}
		}
		c.RawQuery = q.Encode()
	}
	return c.String()
}

// shownEndpoint is shownURL of a URL given as text; one that does not parse is shown without
// anything that looks like user info.
func shownEndpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if at := strings.LastIndex(raw, "@"); at >= 0 {
			if scheme := strings.Index(raw, "://"); scheme >= 0 && scheme < at {
				return raw[:scheme+3] + raw[at+1:]
			}
		}
		return raw
	}
	return shownURL(u)
}

// joinPath appends path to the API root base, before its query: an Azure root such as
// https://x.openai.azure.com/openai/deployments/d?api-version=2024-06-01 keeps its query after
// the joined path.
func joinPath(base, path string) string {
	u, err := url.Parse(base)
	if err != nil || u.Opaque != "" {
		return strings.TrimRight(base, "/") + path
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	if u.RawPath != "" {
		u.RawPath = strings.TrimRight(u.RawPath, "/") + path
	}
	return u.String()
}

// urlScrubbed is an error whose text shows a URL as shownEndpoint does; errors.Is and As still
// see the error itself.
type urlScrubbed struct {
	err error
	raw string
}

func (u urlScrubbed) Error() string {
	text := u.err.Error()
	if u.raw != "" {
		text = strings.ReplaceAll(text, u.raw, shownEndpoint(u.raw))
	}
	return stripUserinfo(text)
}

func (u urlScrubbed) Unwrap() error { return u.err }

// scrubURL returns err with raw, and any user info of an http(s) URL in its text, hidden.
func scrubURL(err error, raw string) error {
	if err == nil {
		return nil
	}
	return urlScrubbed{err, raw}
}

// stripUserinfo removes "user:password@" from every http(s) URL in text.
func stripUserinfo(text string) string {
	for _, scheme := range []string{"http://", "https://"} {
		for from := 0; ; {
			i := strings.Index(text[from:], scheme)
			if i < 0 {
				break
			}
			start := from + i + len(scheme)
			end := start + strings.IndexAny(text[start:]+" ", " \"/?#")
			if at := strings.LastIndex(text[start:end], "@"); at >= 0 {
				text = text[:start] + text[start+at+1:]
			}
			from = start
		}
	}
	return text
}
