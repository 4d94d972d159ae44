package tui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/view"
)

// bigReply is size bytes of reply text: paragraphs of prose with a code block now and then,
// as a long answer has.
func bigReply(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		if i%7 == 6 {
			fmt.Fprintf(&b, "```go\nfunc step%d(x int) int {\n\treturn x * %d\n}\n```\n\n", i, i)
			continue
		}
		fmt.Fprintf(&b, "Paragraph %d. The renderer keeps every complete block and rewraps only the open tail of the reply; "+
			"a **long** answer should cost memory in proportion to its text and no more, `code` included.\n\n", i)
	}
	return b.String()[:size]
}

// replyHandler streams text as Chat Completions chunks of at most delta bytes each. Through
// the harness the body is made as the client reads it, as a network delivers it, so the
// test's copy of the body does not count as the reply's memory.
func replyHandler(text string, delta int) http.Handler {
	return &chunkedReply{text: text, delta: delta}
}

// chunkedReply is text as Chat Completions chunks of at most delta bytes each, then a stop.
type chunkedReply struct {
	text  string
	delta int
}

func (c *chunkedReply) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	io.Copy(w, c.body())
}

// body is the event stream, each chunk made when the reader reaches it.
func (c *chunkedReply) body() io.Reader { return &chunkReader{text: c.text, delta: c.delta} }

// chunkReader makes one chunk at a time: it holds at most one chunk besides the text.
type chunkReader struct {
	text    string
	delta   int
	pending []byte
	ended   bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.pending) == 0 {
		switch {
		case len(r.text) > 0:
			n := min(r.delta, len(r.text))
			for n < len(r.text) && (r.text[n]&0xC0) == 0x80 {
				n++
			}
			piece, _ := json.Marshal(r.text[:n])
			r.text = r.text[n:]
			r.pending = fmt.Appendf(r.pending[:0], "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", piece)
		case !r.ended:
			r.ended = true
			r.pending = append(r.pending[:0], "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"...)
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// replyHeap streams a reply of size bytes through the real path — the wire decoder, the
// engine, the transcript, the session log and the view at 120x40 with the given styles — and
// returns the live heap it left behind after a GC and the bytes allocated on the way, each as
// a multiple of size.
func replyHeap(t testing.TB, size int, styles view.Styles) (held, allocated float64) {
	text := bigReply(size)
	h := newHarness(t, "text", 120, 40)
	h.m.renderer = view.NewRenderer(styles)
	h.server.h = replyHandler(text, 256)
	w := sessionlog.Later(filepath.Join(t.TempDir(), "session.jsonl"), nil)
	h.m.log = w
	h.m.renderer.Render(h.m.frame()) // the renderer's one-time set-up is not the reply's
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h.submit("write a long answer")
	for n := 0; len(h.pending) > 0; n++ {
		msg := h.pending[0]
		h.pending[0] = nil // the drained messages must not keep their sources alive
		h.pending = h.pending[1:]
		h.send(msg)
		if n%64 == 0 {
			_ = h.m.View()
		}
	}
	_ = h.m.View()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := h.m.Chat().State.Phase.String(); !strings.Contains(got, "complete") && !strings.Contains(got, "Complete") {
		t.Fatalf("the reply ended in %s", got)
	}
	h.server.sent, h.server.h = nil, nil // the test's own copies of the request and the reply
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if path := os.Getenv("PHASECHAT_HEAP_PROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	runtime.KeepAlive(h)
	runtime.KeepAlive(text) // made before the first look: letting it go would count as the reply holding less
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(size), float64(after.TotalAlloc-before.TotalAlloc) / float64(size)
}

// BenchmarkReplyHeap is P5 (docs/architecture.md, Performance) for one long reply through the
// whole path: the heap it holds once finished ("x-heap", under 3) and what it allocated on the
// way ("x-alloc"), as multiples of its size. Run with -benchtime=1x; with
// PHASECHAT_HEAP_PROFILE=FILE set, the heap held at the end is also written there, for
// `go tool pprof -sample_index=inuse_space`.
func BenchmarkReplyHeap(b *testing.B) {
	for _, st := range []struct {
		name   string
		styles view.Styles
	}{{"colour", view.DefaultStyles()}, {"plain", view.PlainStyles()}} {
		b.Run(st.name, func(b *testing.B) {
			for b.Loop() {
				held, allocated := replyHeap(b, 10<<20, st.styles)
				b.ReportMetric(held, "x-heap")
				b.ReportMetric(allocated, "x-alloc")
			}
		})
	}
}
