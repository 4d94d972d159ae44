package oneshot

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/stream"
)

// longReplyURL is a server on 127.0.0.1 that streams a reply of chunks deltas, each chunk,
// as Chat Completions; it holds one chunk, not the reply.
func longReplyURL(t *testing.T, chunk string, chunks int) string {
	t.Helper()
	delta := fmt.Sprintf("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", chunk)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for range chunks {
			io.WriteString(w, delta)
		}
		io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// liveHeap is the heap in use once garbage is collected (twice: what pools keep is let go on
// the second collection).
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// heapProbe discards what is written to it and, once at bytes came, measures the live heap.
type heapProbe struct {
	at, written int
	heap        int64
	seen        int // bytes written when heap was measured
}

func (p *heapProbe) Write(b []byte) (int, error) {
	if p.written += len(b); p.written >= p.at && p.seen == 0 {
		p.heap, p.seen = liveHeap(), p.written
	}
	return len(b), nil
}

// While a long reply streams, what one-shot wrote of it is not kept: the live heap is about
// the engine's one copy of the text so far, not that and a cleaned copy too.
func TestTheWrittenReplyIsNotKept(t *testing.T) {
	chunk := strings.Repeat(strings.Repeat("word ", 15)+"\n", 13)
	const chunks = 4096
	size := len(chunk) * chunks
	for _, rule := range []TextRule{TextScreen, TextPlain, TextRaw} {
		base := longReplyURL(t, chunk, chunks)
		out := &heapProbe{at: size * 3 / 4}
		before := liveHeap()
		res := Run(Options{Chat: chat.New(chat.Config{Model: "m"}, nil), Performer: &perform.Performer{Client: stream.NewClient(base, "")},
			Prompt: "hi", Out: out, Text: rule})
		if res.Outcome != Complete || out.written != size {
			t.Fatalf("rule %d: %+v, %d bytes written, want %d", rule, res.Outcome, out.written, size)
		}
		ratio := float64(out.heap-before) / float64(out.seen)
		t.Logf("rule %d: the live heap grew by %.2fx the %d bytes written", rule, ratio, out.seen)
		if ratio > 1.75 {
			t.Errorf("rule %d: %d bytes written, the live heap grew by %.2fx that, want under 1.75x", rule, out.seen, ratio)
		}
	}
}
