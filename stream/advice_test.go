package stream

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

func TestErrorsSayWhatToDo(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		header  string // Retry-After
		body    string
		noKey   bool
		source  string
		want    string // the end of the message
		retry   wire.RetryHelps
		notWant string
	}{
		{name: "401, a key was sent", status: 401, retry: wire.RetryUseless, body: `{"error":{"message":"Incorrect API key provided"}}`,
			want: "Incorrect API key provided. OPENAI_API_KEY is set but SRV/v1 rejected it"},
		{name: "401, the key came from elsewhere", status: 401, retry: wire.RetryUseless, source: "the key command of provider work",
			body: `{"error":{"message":"bad key"}}`, want: "bad key. The key command of provider work is set but SRV/v1 rejected it"},
		{name: "401, no key", status: 401, retry: wire.RetryUseless, noKey: true, body: `{"error":{"message":"Missing bearer"}}`,
			want: "Missing bearer. No API key is set: export OPENAI_API_KEY, or name the provider's key in the config file"},
		{name: "400 too long", status: 400, retry: wire.RetryUseless,
			body: `{"error":{"message":"This model's maximum context length is 128000 tokens.","code":"context_length_exceeded"}}`,
			want: "The conversation is too long for this model (HTTP 400 from HOST: This model's maximum context length is 128000 tokens). Retrying will not help: /compact summarises the older turns, /new starts a new conversation, or send a shorter message"},
		{name: "400 too long, Responses", status: 400, retry: wire.RetryUseless,
			body: `{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}`,
			want: "Retrying will not help: /compact summarises the older turns, /new starts a new conversation, or send a shorter message"},
		{name: "400 too long, Anthropic", status: 400, retry: wire.RetryUseless,
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`,
			want: "Retrying will not help: /compact summarises the older turns, /new starts a new conversation, or send a shorter message"},
		{name: "429 that says its wait", status: 429, header: "20",
			body: `{"error":{"message":"Rate limit reached. Please try again in 20s."}}`,
			want: "Please try again in 20s.", notWant: "retry after"},
		{name: "429 that does not", status: 429, header: "7", body: `{"error":{"message":"Slow down."}}`,
			want: "Slow down; retry after 7s"},
		{name: "502", status: 502, body: "<html>bad gateway</html>", retry: wire.RetrySoon},
		{name: "503", status: 503, body: `{"error":{"message":"overloaded"}}`, retry: wire.RetrySoon},
		{name: "504", status: 504, retry: wire.RetrySoon},
		{name: "500 with no body", status: 500, retry: wire.RetrySoon},
		{name: "500 that says why", status: 500, body: `{"error":{"message":"The server had an error"}}`, retry: wire.RetryMaybe},
		{name: "503 with Retry-After", status: 503, header: "3", retry: wire.RetryMaybe},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, srv := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.header != "" {
					w.Header().Set("Retry-After", tc.header)
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			if tc.noKey {
				c.APIKey = ""
			}
			c.KeySource = tc.source
			res, _ := streamResult(t, c)
			host := strings.TrimPrefix(srv.URL, "http://")
			want := strings.NewReplacer("SRV", srv.URL, "HOST", host).Replace(tc.want)
			if res.Err == nil || !strings.HasSuffix(res.Err.Message, want) {
				t.Fatalf("message %v\nwant the end %q", res.Err, want)
			}
			if tc.notWant != "" && strings.Contains(res.Err.Message, tc.notWant) {
				t.Errorf("the message repeats itself: %q", res.Err.Message)
			}
			if got := res.Err.Retry(); got != tc.retry {
				t.Errorf("Retry() = %d, want %d", got, tc.retry)
			}
		})
	}
	t.Run("a model the server lacks, named with a provider that is not configured", func(t *testing.T) {
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"message":"The model nope/x does not exist. Valid models: a, b, c","code":"model_not_found"}}`)
		})
		c.NoSuchModel = `There is no provider "nope"`
		res, _ := streamResult(t, c)
		if res.Err == nil || !strings.HasPrefix(res.Err.Message, c.NoSuchModel) || strings.Contains(res.Err.Message, "Valid models") {
			t.Fatalf("message %v, want the advice instead of the server's list", res.Err)
		}
	})
	t.Run("a refused connection is worth a quick retry", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		c := NewClient("http://"+addr+"/v1", "")
		res, _ := c.Complete(context.Background(), wire.Request{})
		if res.Err == nil || res.Err.Retry() != wire.RetrySoon {
			t.Errorf("refused: %+v", res.Err)
		}
	})
}
