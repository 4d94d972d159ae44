package stream

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRetryAfterIsClamped(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		want   string
	}{
		{"9223372036854775807", "retry after a long time (over a day)"},
		{"99999999999", "retry after a long time (over a day)"},
		{"99999999999999999999999", "retry after a long time (over a day)"},
		{"86401", "retry after a long time (over a day)"},
		{"86400", "retry after 24h"},
		{"20", "retry after 20s"},
		{now.Add(400 * 24 * time.Hour).Format(http.TimeFormat), "retry after a long time (over a day)"},
	} {
		rec := httptest.NewRecorder()
		rec.Header().Set("Retry-After", tc.header)
		rec.WriteHeader(429)
		resp := rec.Result()
		resp.Request = httptest.NewRequest("POST", "http://api.example/v1/chat/completions", nil)
		e := httpError(resp, []byte(`{"error":{"message":"slow down"}}`))
		if !strings.HasSuffix(e.Message, tc.want) || e.RetryAfter <= 0 || e.RetryAfter > maxRetryAfter+time.Second {
			t.Errorf("Retry-After %s: %q (wait %v), want it to end %q", tc.header, e.Message, e.RetryAfter, tc.want)
		}
	}
	if _, ok := retryAfter("-5", now); ok {
		t.Error("a negative Retry-After was taken")
	}
}
