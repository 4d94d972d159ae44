package stream

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

const redirectKey = "sk-live-redirect-0123456789"

// keyCatcher is a plain http server that records every Authorization or x-api-key it gets.
func keyCatcher(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization")+r.Header.Get("X-Api-Key")+r.Header.Get("X-Custom"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"stolen\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func redirector(to string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to+r.URL.Path, http.StatusTemporaryRedirect)
	}
}

func TestTheKeyNeverFollowsARedirectElsewhere(t *testing.T) {
	catcher, caught := keyCatcher(t)
	for _, tc := range []struct {
		name, want string
		tls        bool
	}{
		{"https to plain http on another port", "redirected to plain http", true},
		{"http to another port", "redirected to another address", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var from *httptest.Server
			if tc.tls {
				from = httptest.NewTLSServer(redirector(catcher.URL))
			} else {
				from = httptest.NewServer(redirector(catcher.URL))
			}
			defer from.Close()
			c := NewClient(from.URL+"/v1", redirectKey)
			c.Headers = map[string]string{"X-Custom": "hdr-secret-value"}
			c.HTTP = from.Client() // trusts the test certificate; the redirect policy still applies
			for _, as := range []wire.Wire{wire.WireChat, wire.WireAnthropic} {
				c.Wire = as
				s := c.Stream(context.Background(), wire.Request{Model: "m"})
				drain(s)
				res := s.Result()
				if res.Outcome != wire.OutcomeError || res.Err == nil || !strings.Contains(res.Err.Message, tc.want) {
					t.Fatalf("%v: outcome %s, error %v; want one saying %q", as, res.Outcome, res.Err, tc.want)
				}
				if strings.Contains(res.Message.Text(), "stolen") {
					t.Errorf("%v: the answer of the other server was shown", as)
				}
				if _, err := c.Complete(context.Background(), wire.Request{Model: "m"}); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%v: Complete: %v", as, err)
				}
			}
			if got := caught(); len(got) > 0 {
				t.Fatalf("the other server was reached, with %q", got)
			}
		})
	}
}

func TestARedirectWithinTheEndpointIsFollowed(t *testing.T) {
	var mu sync.Mutex
	var auth string
	mux := http.NewServeMux()
	mux.HandleFunc("/old/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1"+strings.TrimPrefix(r.URL.Path, "/old"), http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		sseHandler("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\n")(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := NewClient(srv.URL+"/old", redirectKey)
	s := c.Stream(context.Background(), wire.Request{Model: "m"})
	drain(s)
	if res := s.Result(); res.Outcome != wire.OutcomeComplete || res.Message.Text() != "hi" {
		t.Fatalf("result %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if auth != "Bearer "+redirectKey {
		t.Fatalf("the endpoint itself got %q", auth)
	}
}

// Credentials in the base URL never appear in a connection error, its cause included.
func TestBaseURLCredentialsAreNotInConnectionErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, base := range []string{
		"http://alice:pa55w0rd-xyz@" + addr + "/v1",
		"http://tokenonlyuser@" + addr + "/v1",
		"http://" + addr + "/v1?api-key=qk-1234567890&api-version=2024",
		"http://alice:pa55w0rd-xyz@[::1/v1", // not a URL at all
	} {
		c := NewClient(base, "")
		s := c.Stream(context.Background(), wire.Request{Model: "m"})
		drain(s)
		res := s.Result()
		_, cerr := c.Complete(context.Background(), wire.Request{Model: "m"})
		_, lerr := c.ListModels(context.Background())
		for _, text := range []string{res.Err.Message, res.Err.Cause.Error(), cerr.Error(), lerr.Error()} {
			for _, leak := range []string{"pa55w0rd", "tokenonlyuser", "qk-1234567890", "alice"} {
				if strings.Contains(text, leak) {
					t.Errorf("%s: %q shows %q", base, text, leak)
				}
			}
		}
	}
}

// An Azure base URL's query stays after the joined path.
func TestBaseURLQueryStaysAfterThePath(t *testing.T) {
	var mu sync.Mutex
	var got string
	c, srv := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.URL.Path + "?" + r.URL.RawQuery
		mu.Unlock()
		sseHandler("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\n")(w, r)
	})
	c.BaseURL = srv.URL + "/openai/deployments/gpt/?api-version=2024-06-01"
	s := c.Stream(context.Background(), wire.Request{Model: "m"})
	drain(s)
	if res := s.Result(); res.Outcome != wire.OutcomeComplete {
		t.Fatalf("result %+v", res.Err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got != "/openai/deployments/gpt/chat/completions?api-version=2024-06-01" {
		t.Fatalf("request went to %q", got)
	}
}
