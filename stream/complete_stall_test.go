package stream

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/stream/wire"
)

// TestCompleteIsBoundedByTheStallTimeout: a stream:false request ends once the server has been
// silent for the stall timeout, whether it sent nothing, only headers, or part of the body.
func TestCompleteIsBoundedByTheStallTimeout(t *testing.T) {
	defer testwait.NoLeaks(t)
	cases := []struct {
		name string
		h    func(w http.ResponseWriter, r *http.Request)
	}{
		{"before the headers", func(w http.ResponseWriter, r *http.Request) {}},
		{"after the headers", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}},
		{"between body bytes", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"par`)
			w.(http.Flusher).Flush()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body) // then the server sees the client go away
				tc.h(w, r)
				<-r.Context().Done() // silent until the client gives up
			})
			c.StallTimeout = 150 * time.Millisecond
			var res wire.Result
			var err error
			finishes(t, "a buffered request to a silent server", func() {
				res, err = c.Complete(context.Background(), wire.Request{Model: "m"})
			})
			if res.Outcome != wire.OutcomeError || !errors.Is(err, wire.ErrStall) || res.Err == nil ||
				res.Err.Message != "No data from the server for 150ms" {
				t.Errorf("Complete = %+v, %v; want the stall error", res, err)
			}
		})
	}
	t.Run("a stop still wins", func(t *testing.T) {
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		})
		c.StallTimeout = time.Hour
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		var res wire.Result
		finishes(t, "a stopped buffered request", func() { res, _ = c.Complete(ctx, wire.Request{}) })
		if res.Outcome != wire.OutcomeStopped {
			t.Errorf("outcome %q, want stopped", res.Outcome)
		}
	})
}
