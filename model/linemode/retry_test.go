package linemode

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// failingFirst answers the first chat request with fail and every later one with the fixture
// server; it counts the requests.
func failingFirst(t *testing.T, fail func(w http.ResponseWriter)) (base string, requests *atomic.Int32) {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{Pace: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	requests = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") && requests.Add(1) == 1 {
			fail(w)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", requests
}

// The line mode retries automatically as the full-screen chat does: once, quickly, after a
// failure before the first byte, and after a 429's Retry-After; it says so, and a piped
// session waits for the retry before it ends.
func TestLineModeRetriesOnItsOwn(t *testing.T) {
	for _, tt := range []struct {
		name string
		fail func(w http.ResponseWriter)
		note string
	}{
		{"503 before the first byte", func(w http.ResponseWriter) { w.WriteHeader(http.StatusServiceUnavailable) }, "Note: Retrying once…"},
		{"429 with Retry-After", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "2")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"message":"Rate limit reached.","type":"requests"}}`))
		}, "Note: Retrying once in 2 seconds…"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base, requests := failingFirst(t, tt.fail)
			var out syncBuffer
			o := sessionOptions(t, base, "text", t.TempDir(), false, pipeWith(t, "hello\n"), &out)
			if err := start(t, o)(); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			got := out.String()
			if !strings.Contains(got, tt.note+"\n") || !strings.Contains(got, "Status: Answer ready.") || requests.Load() != 2 {
				t.Fatalf("%d requests; output:\n%s", requests.Load(), got)
			}
			if strings.Index(got, tt.note) > strings.Index(got, "Status: Answer ready.") {
				t.Fatalf("the retry was said after the answer:\n%s", got)
			}
		})
	}
}
