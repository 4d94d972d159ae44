package stream

import (
	"context"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// streamResult runs one streaming request to the end and checks that it ends with exactly
// one End update whose phase agrees with the outcome.
func streamResult(t *testing.T, c *Client) (wire.Result, []wire.Update) {
	t.Helper()
	s := c.Stream(context.Background(), wire.Request{Model: "m"})
	defer s.Close()
	ups := drain(s)
	if len(ups) == 0 || ups[len(ups)-1].N != 0 {
		t.Fatalf("no End update last: %+v", ups)
	}
	res := s.Result()
	st, _ := fold(ups)
	want := map[wire.Outcome]phase.Phase{wire.OutcomeComplete: phase.Complete, wire.OutcomeError: phase.Error, wire.OutcomeTruncated: phase.Error}[res.Outcome]
	if st.Phase != want {
		t.Errorf("phase %v after outcome %q", st.Phase, res.Outcome)
	}
	if (res.Err != nil) != (res.Outcome == wire.OutcomeError || res.Outcome == wire.OutcomeTruncated) {
		t.Errorf("outcome %q with error %v", res.Outcome, res.Err)
	}
	if res.Err != nil && st.Reason != res.Err.Message {
		t.Errorf("status reason %q, error %q", st.Reason, res.Err.Message)
	}
	return res, ups
}

// TestCorpusHTTPErrors serves each recorded error body with its status and checks what the
// user is told: the provider's own message, after "HTTP <status> from <host>".
func TestCorpusHTTPErrors(t *testing.T) {
	want := map[string]string{
		"anthropic/effort-unsupported.http-400.json": "This model does not support effort level 'xhigh'. Supported levels: high, low, max, medium.",
		// Anthropic's shape: {"type":"error","error":{"type":...,"message":...}}.
		"anthropic/invalid-x-api-key.http-401.json":              "invalid x-api-key",
		"openai-responses/deepseek-no-tool-output.http-400.json": "No tool output found for tool call call-a.",
		"openai-responses/invalid-api-key.http-401.json":         "Incorrect API key provided: invalid-*****2345. You can find your API key at https://platform.openai.com/account/api-keys.",
		"azure/deployment-not-found.http-404.json":               "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.",
		"groq/tool-use-failed.http-400.json":                     "Tool call validation failed: tool call validation failed: parameters for tool get_something_by_name did not match schema: errors: [missing properties: 'name', additionalProperties 'foo' not allowed]",
		"openai/invalid-api-key.http-401.json":                   "Incorrect API key provided: not-a-re**************************ized. You can find your API key at https://platform.openai.com/account/api-keys.",
		"openai/invalid-image-url.http-400.json":                 "Error while downloading https://source.unsplash.com/8xznAGy4HcY/800x400.",
		// OpenRouter's own words are generic; the upstream provider's are in metadata.raw.
		"openrouter/gemini-rate-limited.http-429.json": "Provider returned error (Google: google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations); retry after 20s",
		"openrouter/rate-limit.http-429.json":          "Rate limit exceeded: limit_rpm/meta-llama/llama-3.2-3b-instruct/e8440b11-29fb-4887-a222-eff9ba33dfbf. High demand for meta-llama/llama-3.2-3b-instruct:free on OpenRouter - limited to 1 requests per minute. Please retry shortly.",
	}
	files := corpusErrorBodies(t)
	if len(files) != len(want) {
		t.Errorf("%d error bodies, %d expectations", len(files), len(want))
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			body := readCorpus(t, rel)
			status, err := statusOf(rel)
			if err != nil {
				t.Fatal(err)
			}
			c, srv := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if strings.HasPrefix(rel, "openrouter/gemini") {
					w.Header().Set("Retry-After", "20")
				}
				w.WriteHeader(status)
				w.Write(body)
			})
			res, _ := streamResult(t, c)
			host := strings.TrimPrefix(srv.URL, "http://")
			msg := "HTTP " + strconv.Itoa(status) + " from " + host + ": " + want[rel]
			if status == http.StatusUnauthorized { // the key's source and the endpoint are named
				msg = strings.TrimRight(msg, ".") + ". OPENAI_API_KEY is set but " + srv.URL + "/v1 rejected it"
			}
			if res.Err == nil || res.Err.Message != msg {
				t.Errorf("message = %v\nwant      %q", res.Err, msg)
			}
			if res.Err != nil && res.Err.Status != status {
				t.Errorf("status = %d", res.Err.Status)
			}
		})
	}
}

// corpusErrorBodies lists the corpus's recorded error bodies, <name>.http-<status>.json.
func corpusErrorBodies(t *testing.T) []string {
	var out []string
	for _, rel := range corpusFiles(t, ".json") {
		if strings.Contains(rel, ".http-") {
			out = append(out, rel)
		}
	}
	return out
}

// statusOf reads the status from a corpus error body's name: <name>.http-<status>.json.
func statusOf(rel string) (int, error) {
	_, after, ok := strings.Cut(rel, ".http-")
	if !ok {
		return 0, errors.New("no status in " + rel)
	}
	return strconv.Atoi(strings.TrimSuffix(after, ".json"))
}

// retryDate stands for an HTTP date retry ahead, made when the request is.
const retryDate = "an HTTP date retry ahead"

func TestHTTPErrorShapes(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		header  map[string]string
		body    string
		message string // after "HTTP <status> from <host>"
		retry   time.Duration
	}{
		{"429 with Retry-After seconds", 429, map[string]string{"Retry-After": "20", "Content-Type": "application/json"},
			`{"error":{"message":"Rate limit reached for requests."}}`, ": Rate limit reached for requests; retry after 20s", 20 * time.Second},
		{"503 with a Retry-After date", 503, map[string]string{"Retry-After": retryDate}, "", "; retry after 1m", 90 * time.Second},
		{"HTML 502 from a proxy", 502, map[string]string{"Content-Type": "text/html"},
			"<html><body><h1>502 Bad Gateway</h1></body></html>", ": the server answered with an HTML page, not an event stream", 0},
		{"HTML without a content type", 500, nil, "<!DOCTYPE html><html>oops</html>", ": the server answered with an HTML page, not an event stream", 0},
		{"plain text", 500, map[string]string{"Content-Type": "text/plain"}, "upstream\nconnect error\n", ": upstream connect error", 0},
		{"error as a string", 400, nil, `{"error":"model not found"}`, ": model not found", 0},
		{"vLLM shape", 400, nil, `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}`, ": max_tokens is too large", 0},
		{"FastAPI shape", 422, nil, `{"detail":"Field required"}`, ": Field required", 0},
		{"empty body", 500, nil, "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := maps.Clone(tt.header)
			var at time.Time // the date sent, whole seconds as an HTTP date has them
			if header["Retry-After"] == retryDate {
				at = time.Now().Add(tt.retry).Truncate(time.Second)
				header["Retry-After"] = at.UTC().Format(http.TimeFormat)
			}
			c, srv := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			})
			sent := time.Now()
			res, _ := streamResult(t, c)
			lo, hi := tt.retry, tt.retry
			if !at.IsZero() {
				// The client counts to the date from when it read it, however long a loaded
				// machine took to get there, and rounds to the second.
				lo, hi = time.Until(at)-time.Second/2, at.Sub(sent)+time.Second/2
			}
			want := "HTTP " + strconv.Itoa(tt.status) + " from " + strings.TrimPrefix(srv.URL, "http://") + tt.message
			if res.Err == nil || !strings.HasPrefix(res.Err.Message, want) || (tt.retry == 0) != (res.Err.RetryAfter == 0) ||
				res.Err.RetryAfter < lo || res.Err.RetryAfter > hi || tt.retry == 0 && res.Err.Message != want {
				t.Errorf("error = %+v\nwant %q, retry %v", res.Err, want, tt.retry)
			}
		})
	}
}

func TestNonEventStreamAnswers(t *testing.T) {
	tests := []struct {
		name, ctype, body, message string
	}{
		{"JSON error with 200", "application/json", `{"error":{"message":"quota exceeded"}}`, ": quota exceeded"},
		{"HTML with 200", "text/html; charset=utf-8", "<html>login</html>", ": the server answered with an HTML page, not an event stream"},
		{"JSON error sniffed without a content type", "", ` {"error":{"message":"nope"}}`, ": nope"},
		{"JSON that is no chat completion", "application/json", `{"ok":true}`, ": the server answered with JSON that is not a chat completion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Type"] = []string{tt.ctype}
				io.WriteString(w, tt.body)
			})
			res, _ := streamResult(t, c)
			want := "HTTP 200 from " + strings.TrimPrefix(srv.URL, "http://") + tt.message
			if res.Outcome != wire.OutcomeError || res.Err.Message != want {
				t.Errorf("result %+v\nwant %q", res, want)
			}
		})
	}
}

func TestConnectionRefusedNamesTheURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := NewClient("http://"+addr+"/v1", "k")
	res, _ := streamResult(t, c)
	want := "Could not connect to http://" + addr + "/v1/chat/completions: connection refused (is the server running?)"
	if res.Outcome != wire.OutcomeError || res.Err.Message != want {
		t.Errorf("error = %v\nwant %q", res.Err, want)
	}
	if _, err := c.Complete(context.Background(), wire.Request{}); err == nil || err.Error() != want {
		t.Errorf("Complete: %v", err)
	}
}

func TestTheKeyIsNeverShown(t *testing.T) {
	const key = "sk-live-SECRET-0123456789"
	t.Run("an error body echoing the Authorization header", func(t *testing.T) {
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(401)
			io.WriteString(w, `{"error":{"message":"bad header: `+r.Header.Get("Authorization")+`"}}`)
		})
		c.APIKey = key
		res, _ := streamResult(t, c)
		if res.Err == nil || strings.Contains(res.Err.Message, key) || !strings.Contains(res.Err.Message, "Bearer [redacted]") {
			t.Errorf("message = %v", res.Err)
		}
	})
	t.Run("an error frame echoing the key, in the events, the frame and the result", func(t *testing.T) {
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: error\ndata: {\"error\":{\"message\":\"key "+key+" revoked\"}}\n\n")
		})
		c.APIKey = key
		res, ups := streamResult(t, c)
		if strings.Contains(res.Err.Message, key) || strings.Contains(ups[0].Frame.Data, key) ||
			strings.Contains(ups[0].Events[0].Error, key) || res.Err.Message != "The server sent an error: key [redacted] revoked" {
			t.Errorf("result %v, first update %+v", res.Err, ups[0])
		}
	})
	t.Run("a URL carrying the key, in the message and the cause", func(t *testing.T) {
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := l.Addr().String()
		l.Close()
		c := NewClient("http://"+addr+"/"+url.PathEscape(key)+"/v1", key)
		res, _ := streamResult(t, c)
		if res.Err == nil || strings.Contains(res.Err.Message, key) || strings.Contains(res.Err.Cause.Error(), key) {
			t.Errorf("error = %v, cause %v", res.Err, res.Err.Cause)
		}
		var netErr *net.OpError
		if !errors.As(res.Err, &netErr) {
			t.Errorf("the cause no longer unwraps to the network error: %T", res.Err.Cause)
		}
	})
}

func TestTruncationOverHTTP(t *testing.T) {
	t.Run("the server ends the body without finish_reason or [DONE]", func(t *testing.T) {
		c, _ := testServer(t, sseHandler("data: "+delta(`{"content":"partial"}`)+"\n\n"))
		res, _ := streamResult(t, c)
		if res.Outcome != wire.OutcomeTruncated || res.Err.Message != wire.MsgTruncated || res.Message.Text() != "partial" {
			t.Errorf("result = %+v", res)
		}
	})
	t.Run("the connection drops inside an event", func(t *testing.T) {
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: "+delta(`{"content":"kept"}`)+"\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"lo")
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		})
		res, _ := streamResult(t, c)
		if res.Outcome != wire.OutcomeError || res.Message.Text() != "kept" || res.Malformed != 0 {
			t.Errorf("result = %+v", res)
		}
		if !errors.Is(res.Err, wire.ErrConnectionDropped) || !strings.Contains(res.Err.Message, "was reset") ||
			res.Err.Message == wire.MsgTruncated {
			t.Errorf("a dropped connection reads %q; it must say the connection was reset", res.Err.Message)
		}
	})
}

func TestErrorFrameOverHTTP(t *testing.T) {
	c, _ := testServer(t, sseHandler("data: "+delta(`{"content":"a"}`)+"\n\nevent: error\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n"))
	res, ups := streamResult(t, c)
	if res.Outcome != wire.OutcomeError || res.Err.Message != "The server sent an error: overloaded" || ups[1].Kind != wire.KindError {
		t.Errorf("result = %+v", res)
	}
}

func TestFrameTooLargeOverHTTP(t *testing.T) {
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+delta(`{"content":"a"}`)+"\n\ndata: ")
		chunk := strings.Repeat("x", 1<<20)
		for range 17 {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	})
	res, _ := streamResult(t, c)
	if res.Outcome != wire.OutcomeError || res.Err.Message != msgTooLarge || !errors.Is(res.Err, ErrFrameTooLarge) {
		t.Errorf("result = %+v", res)
	}
}
