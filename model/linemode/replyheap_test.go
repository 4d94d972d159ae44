package linemode

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
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

// While a long reply streams, the lines printed are not kept: the live heap is about the
// engine's one copy of the text so far, not that and a sanitised copy too.
func TestPrintedLinesAreNotKept(t *testing.T) {
	line := strings.TrimSpace(strings.Repeat("word ", 15))
	chunk := strings.Repeat(line+"\n", 13)
	const chunks = 4096
	size := len(chunk) * chunks
	o := sessionOptions(t, longReplyURL(t, chunk, chunks), "m", t.TempDir(), false, pipeWith(t, "write\n"), nil)
	out := &heapProbe{at: size * 3 / 4}
	o.Out = out
	before := liveHeap()
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	if out.written < size {
		t.Fatalf("%d bytes printed, want the reply's %d and more", out.written, size)
	}
	ratio := float64(out.heap-before) / float64(out.seen)
	t.Logf("the live heap grew by %.2fx the %d bytes printed", ratio, out.seen)
	if ratio > 1.75 {
		t.Errorf("%d bytes printed, the live heap grew by %.2fx that, want under 1.75x", out.seen, ratio)
	}
}
