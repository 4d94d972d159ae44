package wire

import (
	"encoding/json"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// corpusBody is one recording of the provider corpus (../shared/corpus, never copied into the
// repository); the test is skipped when the corpus is not here.
func corpusBody(tb testing.TB, provider, name string) string {
	tb.Helper()
	for _, dir := range []string{filepath.Join("..", "..", "..", "shared", "corpus"), "/work/shared/corpus"} {
		if data, err := os.ReadFile(filepath.Join(dir, provider, name)); err == nil {
			return string(data)
		}
	}
	tb.Skipf("the provider corpus (../shared/corpus/%s/%s) is not here: skipped", provider, name)
	return ""
}

// longResponsesReply is a recorded Responses stream of one text part with its deltas given
// times over, its output_text.done saying that whole text and then tail; and the text the
// stream shows. The frames are made as they are read, not held.
func longResponsesReply(tb testing.TB, times int, tail string) (iter.Seq[Frame], string) {
	tb.Helper()
	frames := sseFrames(corpusBody(tb, "openai-responses", "gpt-4.1-nano-text-78-deltas.sse"))
	first, last, done := -1, -1, -1
	for i, f := range frames {
		switch f.Event {
		case "response.output_text.delta":
			if first < 0 {
				first = i
			}
			last = i
		case "response.output_text.done":
			done = i
		}
	}
	if first < 0 || done < last {
		tb.Fatal("the recording has no text deltas followed by their done event")
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(frames[done].Data), &ev); err != nil {
		tb.Fatal(err)
	}
	whole := strings.Repeat(ev["text"].(string), times) + tail
	ev["text"] = whole
	data, err := json.Marshal(ev)
	if err != nil {
		tb.Fatal(err)
	}
	frames[done].Data = string(data)
	return func(yield func(Frame) bool) {
		for i := 0; i < len(frames); i++ {
			if i == first {
				for range times - 1 {
					for _, f := range frames[first : last+1] {
						if !yield(f) {
							return
						}
					}
				}
			}
			if !yield(frames[i]) {
				return
			}
		}
	}, whole
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

// heldWhileDecoding decodes frames with a decoder of format w (its text left to the caller
// when left) and returns the live heap the decoder holds once the frames are read, before the
// stream's end, and the text its updates gave.
func heldWhileDecoding(w Wire, left bool, frames iter.Seq[Frame], shown *strings.Builder) int64 {
	before := liveHeap()
	dec := NewFrameDecoder(w)
	if left {
		dec.LeaveText()
	}
	for f := range frames {
		for _, ev := range dec.Frame(f).Events {
			if ev.Kind == phase.KindText && shown != nil {
				shown.WriteString(ev.Delta)
			}
		}
	}
	held := liveHeap() - before
	runtime.KeepAlive(dec)
	return held
}

// A Responses decoder whose text is left to its caller holds no copy of it while it streams,
// and still checks the part's done event against the deltas: a done text that goes on past
// 1 MB of deltas adds only what they did not bring.
func TestLeftResponsesTextIsNotHeld(t *testing.T) {
	frames, whole := longResponsesReply(t, 2_500, " The end.")
	var shown strings.Builder
	shown.Grow(len(whole))
	held := heldWhileDecoding(WireResponses, true, frames, &shown)
	if shown.String() != whole {
		t.Fatalf("the updates showed %d bytes ending %q, want the done event's %d ending %q",
			shown.Len(), shown.String()[max(0, shown.Len()-20):], len(whole), whole[len(whole)-20:])
	}
	if held > int64(len(whole)/16) {
		t.Errorf("the decoder holds %d bytes of heap after a %d-byte reply left to its caller, want under %d",
			held, len(whole), len(whole)/16)
	}
}

// BenchmarkResponsesHeldText decodes a 4 MB Responses reply with its text kept and left to
// the caller; held-B is the heap the decoder holds once the frames are read.
func BenchmarkResponsesHeldText(b *testing.B) {
	frames, whole := longResponsesReply(b, 10_000, "")
	for _, left := range []bool{false, true} {
		name := "kept"
		if left {
			name = "left"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(whole)))
			for b.Loop() {
				dec := NewFrameDecoder(WireResponses)
				if left {
					dec.LeaveText()
				}
				for f := range frames {
					dec.Frame(f)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(heldWhileDecoding(WireResponses, left, frames, nil)), "held-B")
		})
	}
}
