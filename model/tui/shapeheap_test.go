package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/view"
)

// replyShapes are the same amount of reply text laid out the ways a reply can be: the memory a
// reply costs must follow its size, not its shape.
var replyShapes = []struct {
	name string
	make func(size int) string
}{
	{"one-line", func(size int) string { return proseOfSize(size, 0) }},
	{"lines-100", func(size int) string { return proseOfSize(size, 100) }},
	{"short-lines", func(size int) string { return proseOfSize(size, 20) }},
	{"code-block", func(size int) string { return "```\n" + proseOfSize(size-8, 100) + "\n```\n" }},
	{"table-row", func(size int) string {
		head := "| a | b |\n|---|---|\n| "
		cell := proseOfSize((size-len(head)-6)/2, 0)
		return head + cell + " | " + cell + " |\n"
	}},
}

// proseOfSize is size bytes of words, a newline after about every width bytes (none when width
// is 0).
func proseOfSize(size, width int) string {
	var b strings.Builder
	b.Grow(size)
	col := 0
	for i := 0; b.Len() < size; i++ {
		word := fmt.Sprintf("word%d ", i%1000)
		if width > 0 && col+len(word) > width {
			b.WriteByte('\n')
			col = 0
		}
		b.WriteString(word)
		col += len(word)
	}
	return b.String()[:size]
}

// shapeHeap streams text through the real path (as replyHeap does) at 120x40 and returns, as
// multiples of its size, the largest live heap seen while it streamed (a GC before each look,
// every 64 messages, at a View) and the heap it holds once finished.
func shapeHeap(t testing.TB, text string) (peak, held float64) {
	h := newHarness(t, "text", 120, 40)
	h.m.renderer = view.NewRenderer(view.DefaultStyles())
	h.server.h = replyHandler(text, 256)
	w := sessionlog.Later(filepath.Join(t.TempDir(), "session.jsonl"), nil)
	h.m.log = w
	h.m.renderer.Render(h.m.frame())
	size := float64(len(text))
	runtime.GC()
	var before, now runtime.MemStats
	runtime.ReadMemStats(&before)
	if path := os.Getenv("PHASECHAT_HEAP_PROFILE"); path != "" {
		if f, err := os.Create(path + ".base"); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	var top uint64
	look := func() {
		runtime.GC()
		runtime.ReadMemStats(&now)
		if d := now.HeapAlloc - min(now.HeapAlloc, before.HeapAlloc); d > top {
			top = d
			if path := os.Getenv("PHASECHAT_PEAK_PROFILE"); path != "" {
				if f, err := os.Create(path); err == nil {
					pprof.WriteHeapProfile(f)
					f.Close()
				}
			}
		}
	}
	h.submit("write a long answer")
	for n := 0; len(h.pending) > 0; n++ {
		msg := h.pending[0]
		h.pending[0] = nil
		h.pending = h.pending[1:]
		h.send(msg)
		if n%64 == 0 {
			_ = h.m.View()
			look()
		}
	}
	_ = h.m.View()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h.server.sent, h.server.h = nil, nil
	look()
	runtime.ReadMemStats(&now)
	if path := os.Getenv("PHASECHAT_HEAP_PROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	runtime.KeepAlive(h)
	return float64(top) / size, float64(now.HeapAlloc-min(now.HeapAlloc, before.HeapAlloc)) / size
}

// BenchmarkReplyShapeHeap is P5 by shape: a 2 MB reply on one line, in 100-column lines, in
// short lines, as one code block and as one table row, each through the whole path at 120x40.
// "x-peak" is the largest live heap while it streamed and "x-heap" what it holds once
// finished, as multiples of its size. Run with -benchtime=1x; PHASECHAT_HEAP_PROFILE=FILE
// writes the heap before the reply (FILE.base) and once finished (FILE), for `go tool pprof
// -sample_index=inuse_space -base FILE.base FILE`, and PHASECHAT_PEAK_PROFILE=FILE the heap at
// its largest.
func BenchmarkReplyShapeHeap(b *testing.B) {
	for _, shape := range replyShapes {
		text := shape.make(2 << 20)
		b.Run(shape.name, func(b *testing.B) {
			for b.Loop() {
				peak, held := shapeHeap(b, text)
				b.ReportMetric(peak, "x-peak")
				b.ReportMetric(held, "x-heap")
			}
		})
	}
}

// While a reply streams, the live heap stays under three times its size whatever its shape,
// and a reply on one line costs at most half as much again as the same text in lines: the
// reply is kept once (the transcript's text), the wire leaves its copy to the engine, the
// partial line is parsed from the reply's own text, and the rest follows the screen or a
// bounded buffer; a long table row, once complete, is held as what draws it, not drawn.
func TestReplyPeakHeapFollowsItsSize(t *testing.T) {
	if testing.Short() {
		t.Skip("streams a reply of each shape through the whole path")
	}
	peaks := map[string]float64{}
	for _, shape := range replyShapes {
		peak, _ := shapeHeap(t, shape.make(1<<20))
		peaks[shape.name] = peak
		if peak >= 3 {
			t.Errorf("%s: the live heap reached %.2f times the reply while it streamed", shape.name, peak)
		}
	}
	if r := peaks["one-line"] / peaks["lines-100"]; r > 1.5 {
		t.Errorf("a reply on one line peaked at %.2f times the reply, %.2f times the same text in lines", peaks["one-line"], r)
	}
	t.Logf("peaks: %v", peaks)
}
