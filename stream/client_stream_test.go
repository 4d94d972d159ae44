package stream

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/stream/wire"
)

// slowServer sends one text frame, then a frame every tick until the request is gone.
func slowServer(t testing.TB, tick time.Duration) (*Client, chan struct{}) {
	gone := make(chan struct{}, 100)
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		defer func() { gone <- struct{}{} }()
		w.Header().Set("Content-Type", "text/event-stream")
		for {
			if _, err := io.WriteString(w, "data: "+delta(`{"content":"x"}`)+"\n\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(tick):
			}
		}
	})
	return c, gone
}

// finishes fails the test unless f returns while the test's patience lasts.
func finishes(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-testwait.After(t):
		t.Fatalf("%s did not return", what)
	}
}

func TestCancelMidStreamLeavesNothingBehind(t *testing.T) {
	defer testwait.NoLeaks(t)
	t.Run("cancel", func(t *testing.T) {
		c, gone := slowServer(t, 20*time.Millisecond)
		ctx, cancel := context.WithCancel(context.Background())
		s := c.Stream(ctx, wire.Request{})
		defer s.Close()
		if u, _ := s.Next(); u.Kind != wire.KindText {
			t.Fatalf("first update %+v", u)
		}
		cancel()
		var ups []wire.Update
		finishes(t, "Next after cancel", func() { ups = drain(s) })
		end := ups[len(ups)-1]
		if res := s.Result(); res.Outcome != wire.OutcomeStopped || res.Err != nil || end.N != 0 || len(end.Events) != 0 {
			t.Errorf("result %+v, end %+v", res, end)
		}
		<-gone // the server saw the request end
	})
	t.Run("close from another goroutine while Next blocks", func(t *testing.T) {
		c, gone := slowServer(t, time.Hour) // one frame, then silence
		s := c.Stream(context.Background(), wire.Request{})
		s.Next()
		time.AfterFunc(20*time.Millisecond, s.Close)
		finishes(t, "Next after Close", func() { drain(s) })
		if res := s.Result(); res.Outcome != wire.OutcomeStopped {
			t.Errorf("outcome %q", res.Outcome)
		}
		<-gone
	})
	t.Run("cancel before the response headers", func(t *testing.T) {
		release := make(chan struct{})
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		})
		defer close(release)
		ctx, cancel := context.WithCancel(context.Background())
		s := c.Stream(ctx, wire.Request{})
		defer s.Close()
		time.AfterFunc(20*time.Millisecond, cancel)
		finishes(t, "Next", func() { drain(s) })
		if res := s.Result(); res.Outcome != wire.OutcomeStopped {
			t.Errorf("outcome %q, err %v", res.Outcome, res.Err)
		}
	})
	t.Run("a hundred aborted streams", func(t *testing.T) {
		c, gone := slowServer(t, 5*time.Millisecond)
		for range 100 {
			ctx, cancel := context.WithCancel(context.Background())
			s := c.Stream(ctx, wire.Request{})
			s.Next()
			cancel()
			drain(s)
			s.Close()
			<-gone
		}
	})
	t.Run("Result before the end stops the stream", func(t *testing.T) {
		c, gone := slowServer(t, 10*time.Millisecond)
		s := c.Stream(context.Background(), wire.Request{})
		s.Next()
		var res wire.Result
		finishes(t, "Result", func() { res = s.Result() })
		if res.Outcome != wire.OutcomeStopped || res.Message.Text() == "" {
			t.Errorf("result %+v", res)
		}
		if _, ok := s.Next(); ok {
			t.Error("Next after Result must return false")
		}
		<-gone
	})
	t.Run("close without reading", func(t *testing.T) {
		c, _ := slowServer(t, time.Millisecond)
		s := c.Stream(context.Background(), wire.Request{})
		s.Close()
		if _, ok := s.Next(); !ok || s.Result().Outcome != wire.OutcomeStopped {
			t.Errorf("a closed stream must still end with its End update, stopped")
		}
	})
}

func TestStallWatchdog(t *testing.T) {
	defer testwait.NoLeaks(t)
	t.Run("silence after a frame", func(t *testing.T) {
		c, _ := slowServer(t, time.Hour)
		c.StallTimeout = 100 * time.Millisecond
		s := c.Stream(context.Background(), wire.Request{})
		defer s.Close()
		start := time.Now()
		var ups []wire.Update
		finishes(t, "a stalled stream", func() { ups = drain(s) })
		res := s.Result()
		if res.Outcome != wire.OutcomeError || res.Err.Message != "No data from the server for 100ms" || res.Message.Text() != "x" {
			t.Errorf("result %+v", res)
		}
		if st, _ := fold(ups); st.Reason != "No data from the server for 100ms" {
			t.Errorf("status reason %q", st.Reason)
		}
		if elapsed := time.Since(start); elapsed < 100*time.Millisecond {
			t.Errorf("ended after %v, before the stall timeout", elapsed)
		}
	})
	t.Run("silence before the headers", func(t *testing.T) {
		release := make(chan struct{})
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		})
		defer close(release)
		c.StallTimeout = 80 * time.Millisecond
		s := c.Stream(context.Background(), wire.Request{})
		defer s.Close()
		finishes(t, "a server that never answers", func() { drain(s) })
		if res := s.Result(); res.Outcome != wire.OutcomeError || res.Err.Message != "No data from the server for 80ms" {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("keep-alive comments are data", func(t *testing.T) {
		var longestGap atomic.Int64 // between two writes of the server, in the last run
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			last := time.Now()
			wrote := func() {
				longestGap.Store(max(longestGap.Load(), int64(time.Since(last))))
				last = time.Now()
			}
			for range 40 {
				io.WriteString(w, ": OPENROUTER PROCESSING\n\n")
				w.(http.Flusher).Flush()
				wrote()
				time.Sleep(50 * time.Millisecond)
			}
			io.WriteString(w, "data: "+delta(`{"content":"ok"}`)+"\n\ndata: [DONE]\n\n")
			wrote()
		})
		// Shorter than the 2s of comments, and 20 times a gap. A run in which a loaded machine
		// held the server back for half the timeout between two writes proves nothing either
		// way, so it is run again; a stall in any other run is the failure.
		c.StallTimeout = time.Second
		var res wire.Result
		testwait.Until(t, func() bool {
			longestGap.Store(0)
			res, _ = streamResult(t, c)
			return res.Outcome == wire.OutcomeComplete || time.Duration(longestGap.Load()) < c.StallTimeout/2
		}, "every run had the server silent for half the stall timeout; the last ended %+v", &res)
		if res.Outcome != wire.OutcomeComplete || res.Message.Text() != "ok" {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("zero turns it off", func(t *testing.T) {
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			time.Sleep(50 * time.Millisecond)
			io.WriteString(w, "data: [DONE]\n\n")
		})
		c.StallTimeout = 0
		if res, _ := streamResult(t, c); res.Outcome != wire.OutcomeComplete {
			t.Errorf("result %+v", res)
		}
	})
}

// chunkedWriter writes body in random pieces, flushing each, so frames cross reads.
func chunkedWriter(body []byte, seed uint64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rng := rand.New(rand.NewPCG(seed, 1))
		for len(body) > 0 {
			n := min(len(body), 1+rng.IntN(700))
			w.Write(body[:n])
			w.(http.Flusher).Flush()
			body = body[n:]
		}
	}
}

// TestCorpusOverHTTP streams every recording from a server in random pieces: the client gives
// the same answer as replay, the CallEvents respect the machine's order, and the phase ends
// where the outcome says.
func TestCorpusOverHTTP(t *testing.T) {
	defer testwait.NoLeaks(t)
	for i, rel := range corpusFiles(t, ".sse") {
		t.Run(rel, func(t *testing.T) {
			data := readCorpus(t, rel)
			want, _ := Replay(strings.NewReader(string(data)), "", ReplayJSON, io.Discard, nil)
			c, _ := testServer(t, chunkedWriter(data, uint64(i)))
			got, ups := streamResult(t, c)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("over HTTP: %+v\nreplay:    %+v", got, want)
			}
			if err := callOrderError(ups...); err != nil {
				t.Error(err)
			}
			_, calls := fold(ups)
			for _, tc := range calls.List() {
				if want.Outcome == wire.OutcomeComplete && tc.Status != "ready" {
					t.Errorf("call %s is %s after a complete stream", tc.ID, tc.Status)
				}
			}
		})
	}
}

// TestReadyBeforeDone is P6 (docs/architecture.md, Performance) over a real connection: a call whose arguments are
// complete is ready (dispatchable) while the server still holds back [DONE].
func TestReadyBeforeDone(t *testing.T) {
	t.Cleanup(func() { testwait.NoLeaks(t) }) // runs last, after the server's cleanup
	sawReady := make(chan struct{})
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+tool(0, "c1", "lookup", `"{\"q\":\"home\"}"`)+"\n\n")
		io.WriteString(w, "data: "+delta(`{"content":"Found two headings."}`)+"\n\n")
		w.(http.Flusher).Flush()
		select { // [DONE] only once the client has the call ready
		case <-sawReady:
		case <-r.Context().Done():
			return
		case <-testwait.After(t):
			return
		}
		io.WriteString(w, "data: [DONE]\n\n")
	})
	s := c.Stream(context.Background(), wire.Request{})
	defer s.Close()
	ready := false
	for u, ok := s.Next(); ok; u, ok = s.Next() {
		for _, ev := range u.Calls {
			if ev.Type == "ready" && ev.ID == "c1" && !ready {
				ready = true
				close(sawReady)
			}
		}
		if u.Kind == wire.KindDone && !ready {
			t.Fatal("[DONE] came before the call was ready")
		}
	}
	if res := s.Result(); !ready || res.Outcome != wire.OutcomeComplete {
		t.Errorf("ready %v, outcome %q (a call ready only at [DONE] would time the server out)", ready, res.Outcome)
	}
}
