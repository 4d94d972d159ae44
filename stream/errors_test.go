package stream

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"20", 20 * time.Second, true},
		{" 0 ", 0, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"", 0, false},
		{"soon", 0, false},
		{"-5", 0, false},
	}
	for _, tt := range tests {
		if got, ok := retryAfter(tt.v, now); got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.v, got, ok, tt.want, tt.ok)
		}
	}
}

func TestErrorBodyIsCapped(t *testing.T) {
	c, srv := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		io.WriteString(w, `{"error":{"message":"`+strings.Repeat("x", 1<<20)+`"}}`)
	})
	res, _ := streamResult(t, c)
	// 64 KiB of a 1 MiB JSON body is not JSON: the text is shown, cut to one short line.
	want := "HTTP 500 from " + strings.TrimPrefix(srv.URL, "http://") + `: {"error":{"message":"xxx`
	if res.Err == nil || !strings.HasPrefix(res.Err.Message, want) || len(res.Err.Message) > 300 {
		t.Errorf("message (%d bytes) = %.120q", len(res.Err.Message), res.Err.Message)
	}
}

func TestCompleteErrors(t *testing.T) {
	c, srv := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided"}}`)
	})
	res, err := c.Complete(context.Background(), wire.Request{})
	var e *wire.Error
	if !errors.As(err, &e) || e.Status != 401 || res.Outcome != wire.OutcomeError || res.Err != e ||
		e.Message != "HTTP 401 from "+strings.TrimPrefix(srv.URL, "http://")+": Incorrect API key provided. OPENAI_API_KEY is set but "+srv.URL+"/v1 rejected it" {
		t.Errorf("result %+v, err %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := c.Complete(ctx, wire.Request{}); !errors.Is(err, context.Canceled) || res.Outcome != wire.OutcomeStopped {
		t.Errorf("cancelled: result %+v, err %v", res, err)
	}
}

func TestBufferedUpdatesOfAFailedResult(t *testing.T) {
	r := wire.Result{Message: wire.Message{Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{{Index: 0, ID: "c", Name: "f", Arguments: "{}"}})},
		Outcome: wire.OutcomeError, Err: &wire.Error{Message: "boom"}}
	ups := wire.BufferedUpdates(r)
	st, calls := fold(ups)
	if c, _ := calls.Get("c"); st.Phase != phase.Error || st.Reason != "boom" || c.Status != phase.CallInterrupted || c.Result.Output != "not run: boom" {
		t.Errorf("phase %v (%q), call %+v", st.Phase, st.Reason, c)
	}
	if err := callOrderError(ups...); err != nil {
		t.Error(err)
	}
}
