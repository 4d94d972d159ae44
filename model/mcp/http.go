package mcp

import (
	"errors"
	"net/http"
	"sync/atomic"
)

// headerTransport adds a server's configured headers to every request and notes when the
// server demands authorization. Header values are secrets: they are never shown or logged.
type headerTransport struct {
	base     *http.Transport // this server's own: closing it leaves no idle connection behind
	headers  http.Header
	sentAuth bool         // an Authorization header is configured
	auth     atomic.Int32 // the last 401 or 403 status seen; 0 when none
	// oversized, when not nil, is set when an answer is refused for passing MaxMessageSize.
	oversized *atomic.Bool
}

func newHeaderTransport(s Server, e environ) (*headerTransport, error) {
	h := http.Header{}
	for _, k := range sortedNames(s.Headers) {
		v, err := e.expand(s.Headers[k])
		if err != nil {
			return nil, &startError{msg: "headers." + k + ": " + err.Error()}
		}
		h.Set(k, v)
	}
	if s.BearerTokenEnv != "" {
		v, ok, err := e.get(s.BearerTokenEnv)
		if err != nil {
			return nil, &startError{msg: "bearer_token_env: " + err.Error()}
		}
		if !ok || v == "" {
			return nil, &startError{msg: "bearer_token_env: the variable " + s.BearerTokenEnv + " is not set"}
		}
		h.Set("Authorization", "Bearer "+v)
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	return &headerTransport{base: base, headers: h, sentAuth: h.Get("Authorization") != ""}, nil
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header[k] = v
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil {
		resp.Body = boundBody(resp, t.oversized)
	}
	if err == nil && (resp.StatusCode == http.StatusUnauthorized ||
		(resp.StatusCode == http.StatusForbidden && resp.Header.Get("WWW-Authenticate") != "")) {
		t.auth.Store(int32(resp.StatusCode))
	}
	return resp, err
}

func (t *headerTransport) authStatus() int { return int(t.auth.Load()) }

// client is an HTTP client over t that follows no redirect to another host: the headers
// would go along.
func (t *headerTransport) client() *http.Client {
	return &http.Client{Transport: t, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme {
			return errors.New("the server redirected to " + req.URL.Host + ", which is not followed (the headers would go along)")
		}
		return nil
	}}
}
