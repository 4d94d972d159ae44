package tui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
)

// fillTranscript gives the chat a conversation of finished exchanges (a resumed session) until
// the transcript is at least lines rows at the model's width, measured exactly (every entry
// rendered once, as after a long session), and returns the row count.
func fillTranscript(h *harness, lines int) int {
	var history []wire.Message
	for n, total := 0, 0; total < lines; {
		for stop := max(20, 2*n); n < stop; n++ {
			history = append(history,
				wire.Message{Role: "user", Parts: wire.TextParts(fmt.Sprintf("Question %d: how does the cache work?", n))},
				wire.Message{Role: "assistant", Parts: wire.TextParts(fmt.Sprintf("Reply %d: frames are read, classified and reduced.\n\n"+
					"- the view draws only what the window shows\n- every entry it drew is cached\n\n"+
					"```go\nfunc f(x int) int { return x * %d }\n```\n\nSo the next frame costs almost nothing.", n, n))})
		}
		h.m.chat = chat.New(h.cfg, history)
		total = h.measure()
	}
	return h.measure()
}

// measure renders the whole transcript once and returns its row count.
func (h *harness) measure() int {
	f := h.m.frame()
	f.ScrollUp = 1 << 40
	_, limit := h.m.renderer.Layout(f)
	return limit + h.m.renderer.Render(f).TranscriptHeight
}

// maxScroll is how far up the transcript can scroll at the current size.
func (h *harness) maxScroll() int {
	_, limit := h.m.renderer.Layout(h.m.layoutFrame())
	return limit
}

// BenchmarkTokenUpdateAndView is P3 (docs/architecture.md, Performance) through the model: one text token arrives as a
// chat.StreamMsg for the current request, Update folds it (engine, reducer, transcript entry)
// and View draws the 120x40 screen, at the tail of a transcript of 1k or 100k rows, in the
// default (coloured) styles. A paragraph break every 60 tokens completes markdown blocks as a
// real reply does.
func BenchmarkTokenUpdateAndView(b *testing.B) {
	for _, size := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%dk", size/1000), func(b *testing.B) {
			h := newHarness(b, "text", 120, 40)
			h.m.renderer = view.NewRenderer(view.DefaultStyles())
			rows := fillTranscript(h, size)
			h.submit("go on")
			first := h.feedStream()
			h.m.View()
			tokens := strings.Fields("The renderer keeps every complete block and rewraps only the open tail of the reply")
			msgs := make([]chat.StreamMsg, 60)
			for i := range msgs {
				tok := tokens[i%len(tokens)] + " "
				if i == len(msgs)-1 {
					tok += "\n\n"
				}
				u := wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: tok}}}
				msgs[i] = chat.StreamMsg{Req: first.Req, Src: first.Src, Update: u, More: true}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				next, _ := h.m.Update(msgs[i%len(msgs)])
				h.m = next.(*Model)
				_ = h.m.View()
				i++
			}
			if !h.m.Chat().State.Phase.Streaming() {
				b.Fatal("the reply stopped streaming")
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// BenchmarkTokenUpdate is one text token's Update alone (no View), at the tail of a 1k-row
// transcript: what a token costs the model itself, copies of it included.
func BenchmarkTokenUpdate(b *testing.B) {
	h := newHarness(b, "text", 120, 40)
	fillTranscript(h, 1_000)
	h.submit("go on")
	first := h.feedStream()
	h.m.View()
	u := wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "token "}}}
	msg := chat.StreamMsg{Req: first.Req, Src: first.Src, Update: u, More: true}
	b.ReportAllocs()
	for b.Loop() {
		next, _ := h.m.Update(msg)
		h.m = next.(*Model)
	}
}

// BenchmarkEscToGoroutinesGone is P4 (docs/architecture.md, Performance): a live slow-drip stream over real HTTP on
// 127.0.0.1, mid-reply; timed from Esc's key press through Update (the phase leaves streaming
// there) and its commands (cancel, close) until every goroutine the request started — the
// pull blocked on the body, net/http's connection goroutines on both sides, the fixture
// handler — has ended. update-ns/op is the Update call alone (the phase has left streaming when
// it returns); settled-ns/op is until the model has handled the stopped request's last message
// and no command of it runs. The pace (a token every 1ms) only shortens the untimed set-up.
func BenchmarkEscToGoroutinesGone(b *testing.B) {
	l := newLiveLoop(b, "slow-drip", live{pace: 0.005})
	l.abortOnce() // warm up: the first request dials
	var inUpdate, settled time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		l.settle()
		base := runtime.NumGoroutine()
		l.forget()
		l.submit("drip")
		l.until("the first token", streamingText)
		b.StartTimer()
		start := time.Now()
		l.send(keyEsc)
		inUpdate += time.Since(start)
		if l.m.Chat().State.Phase.Streaming() {
			b.Fatal("still streaming after Esc")
		}
		l.settle()
		settled += time.Since(start)
		giveUp := testwait.Deadline(b)
		for runtime.NumGoroutine() > base {
			if time.Now().After(giveUp) {
				b.Fatalf("%d goroutines, %d before the request", runtime.NumGoroutine(), base)
			}
			runtime.Gosched()
		}
		b.StopTimer()
	}
	b.ReportMetric(float64(inUpdate.Nanoseconds())/float64(b.N), "update-ns/op")
	b.ReportMetric(float64(settled.Nanoseconds())/float64(b.N), "settled-ns/op")
}

// streamCases are whole replies streamed delta by delta: a 39 KB reply that is one line, the
// same bytes in short lines, and a 30 KB markdown reply in 4-byte deltas.
func streamCases() []struct {
	name   string
	deltas []string
} {
	sentence := "The renderer keeps every complete line and wraps only the new text of the open one. "
	single := strings.Repeat(sentence, (39<<10)/len(sentence)+1)
	short := strings.ReplaceAll(single, ". ", ".\n")
	var md strings.Builder
	for i := 0; md.Len() < 30<<10; i++ {
		fmt.Fprintf(&md, "## Step %d\n\nSome **bold** and *italic* text with `code` and a [link](https://example.com/%d).\n\n", i, i)
		md.WriteString("- first point\n  - nested point with more words to wrap\n- second point\n\n1. one\n2. two\n\n")
		md.WriteString("| Name | Value |\n|---|---|\n| alpha | 1 |\n| beta | 22 |\n\n")
		md.WriteString("```go\nfunc f(x int) int {\n\treturn x * 2 // doubled\n}\n```\n\n> a quoted line\n\n")
	}
	cut := func(text string, n int) []string {
		size := max(1, len(text)/n)
		var out []string
		for len(text) > 0 {
			k := min(size, len(text))
			out = append(out, text[:k])
			text = text[k:]
		}
		return out
	}
	return []struct {
		name   string
		deltas []string
	}{
		{"single-line-39KB", cut(single, 8000)},
		{"short-lines-39KB", cut(short, 8000)},
		{"markdown-30KB-4B", cut(md.String(), md.Len()/4)},
	}
}

// BenchmarkStreamReplyTUI is BenchmarkStreamReply (view) through the model: each delta arrives
// as a chat.StreamMsg, Update folds it and View draws the 120x40 screen; one op is the whole
// reply, ns/delta what one delta costs.
func BenchmarkStreamReplyTUI(b *testing.B) {
	for _, c := range streamCases() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				h := newHarness(b, "text", 120, 40)
				h.m.renderer = view.NewRenderer(view.DefaultStyles())
				h.submit("write it all")
				first := h.feedStream()
				h.m.View()
				msgs := make([]chat.StreamMsg, len(c.deltas))
				for i, d := range c.deltas {
					u := wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: d}}}
					msgs[i] = chat.StreamMsg{Req: first.Req, Src: first.Src, Update: u, More: true}
				}
				b.StartTimer()
				for _, msg := range msgs {
					next, _ := h.m.Update(msg)
					h.m = next.(*Model)
					_ = h.m.View()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.deltas)), "ns/delta")
		})
	}
}

// BenchmarkUnchangedView is a message the model does not act on (mouse motion) and the View
// after it, mid-reply at the tail of a 1k-row transcript, 120x40, default styles.
func BenchmarkUnchangedView(b *testing.B) {
	h := newHarness(b, "text", 120, 40)
	h.m.renderer = view.NewRenderer(view.DefaultStyles())
	fillTranscript(h, 1_000)
	h.submit("go on")
	h.feedStream()
	h.m.View()
	b.ReportAllocs()
	motion := tea.MouseMotionMsg{X: 10, Y: 10}
	for b.Loop() {
		h.m.Update(motion)
		_ = h.m.View()
	}
}

// BenchmarkScrolledTokenUpdate is BenchmarkTokenUpdate scrolled up a page: what a token costs
// the model while the user reads above the tail (no View).
func BenchmarkScrolledTokenUpdate(b *testing.B) {
	h := newHarness(b, "text", 120, 40)
	fillTranscript(h, 1_000)
	h.submit("go on")
	first := h.feedStream()
	h.m.View()
	h.send(keyPgUp)
	u := wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "token "}}}
	msg := chat.StreamMsg{Req: first.Req, Src: first.Src, Update: u, More: true}
	b.ReportAllocs()
	for b.Loop() {
		next, _ := h.m.Update(msg)
		h.m = next.(*Model)
	}
}

// BenchmarkScrolledTokenUpdateAndView is BenchmarkScrolledTokenUpdate with the View after each
// token, 120x40, default styles.
func BenchmarkScrolledTokenUpdateAndView(b *testing.B) {
	h := newHarness(b, "text", 120, 40)
	h.m.renderer = view.NewRenderer(view.DefaultStyles())
	fillTranscript(h, 1_000)
	h.submit("go on")
	first := h.feedStream()
	h.m.View()
	h.send(keyPgUp)
	u := wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "token "}}}
	msg := chat.StreamMsg{Req: first.Req, Src: first.Src, Update: u, More: true}
	b.ReportAllocs()
	for b.Loop() {
		next, _ := h.m.Update(msg)
		h.m = next.(*Model)
		_ = h.m.View()
	}
}
