package view

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// replyText is an assistant reply of about 20 rows at 120 columns: paragraphs, a list and a
// code block, numbered so no two replies share text.
func replyText(n int) string {
	p := fmt.Sprintf("Reply %d explains the pipeline in some detail: frames are read, classified, "+
		"reassembled and reduced, and the view draws only what the window shows, caching every "+
		"entry it has drawn so that the next frame costs almost nothing. ", n)
	return p + "\n\n- first point about **caching**\n- second point about `streaming`\n\n" +
		"```go\nfunc f(x int) int {\n\treturn x * 2\n}\n```\n\n" + p + p
}

// buildTranscript returns entries (user prompt, reply, …) that render to at least lines rows
// at width, fully measured by r (as they would be after a session of streaming), and the
// transcript's exact row count.
func buildTranscript(b *testing.B, r *Renderer, lines, width, height int) ([]*draft, int) {
	b.Helper()
	var es []*draft
	total := 0
	step := max(2, lines/250) // entries between measurements: about 20 rows each
	for total < lines {
		n := len(es)
		es = append(es, &draft{Role: transcript.RoleUser, Text: fmt.Sprintf("Question %d: how does the cache work?", n)},
			&draft{Role: transcript.RoleAssistant, Text: replyText(n)})
		if len(es)%step == 0 {
			scr := r.Render(benchFrame(es, width, height, 1<<40))
			total = scr.MaxScroll + scr.TranscriptHeight
		}
	}
	scr := r.Render(benchFrame(es, width, height, 1<<40))
	return es, scr.MaxScroll + scr.TranscriptHeight
}

func benchFrame(es []*draft, width, height, scrollUp int) Frame {
	return Frame{Width: width, Height: height, Entries: published(es), ScrollUp: scrollUp,
		State: phase.State{Phase: phase.StreamingText}, Focus: phase.FocusStop,
		Composer: "┃\n┃\n┃", Help: streamingKeys,
		Footer: Footer{Endpoint: "https://api.openai.com/v1", Model: "gpt-4o", Turn: Usage{1200, 345}}}
}

// BenchmarkAppendTokenAndRender is P3 (docs/architecture.md, Performance): one token appended to a streaming reply at
// the tail of a transcript of 1k or 100k rows, Version bumped, the screen rendered at 120x40
// following the tail. A paragraph break every 60 tokens makes blocks complete as in a real
// reply.
func BenchmarkAppendTokenAndRender(b *testing.B) {
	for _, size := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%dk", size/1000), func(b *testing.B) {
			r := NewRenderer(DefaultStyles())
			es, total := buildTranscript(b, r, size, 120, 40)
			reply := &draft{Role: transcript.RoleAssistant, Streaming: true}
			es = append(es, reply)
			f := benchFrame(es, 120, 40, 0)
			var text phase.Text
			tokens := strings.Fields("The renderer keeps every complete block and rewraps only the open tail of the reply")
			defer b.ReportMetric(float64(total), "rows")
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				tok := tokens[i%len(tokens)] + " "
				if i%60 == 59 {
					tok += "\n\n"
				}
				i++
				text = text.Append(tok)
				reply.Text = text.String()
				reply.entry()
				r.Render(f)
			}
		})
	}
}

// BenchmarkColdRenderLongReply renders one long reply (about 100 KB of markdown) with an
// empty cache: every line drawn once.
func BenchmarkColdRenderLongReply(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 100<<10; i++ {
		sb.WriteString(replyText(i))
		sb.WriteString("\n\n")
	}
	es := []*draft{{Role: transcript.RoleUser, Text: "Explain everything."}, {Role: transcript.RoleAssistant, Text: sb.String()}}
	for _, st := range []struct {
		name   string
		styles Styles
	}{{"colour", DefaultStyles()}, {"plain", PlainStyles()}} {
		b.Run(st.name, func(b *testing.B) {
			b.SetBytes(int64(sb.Len()))
			b.ReportAllocs()
			for b.Loop() {
				NewRenderer(st.styles).Render(benchFrame(es, 120, 40, 0))
			}
		})
	}
}

// BenchmarkResize alternates the width of a 100k-row transcript between 120 and 100 columns:
// only the entries the window reaches are wrapped again; the others get estimated heights.
func BenchmarkResize(b *testing.B) {
	r := NewRenderer(DefaultStyles())
	es, total := buildTranscript(b, r, 100_000, 120, 40)
	defer b.ReportMetric(float64(total), "rows")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r.Render(benchFrame(es, 120-20*(i%2), 40, 0))
		i++
	}
}

// BenchmarkScroll pages up through a 100k-row transcript (every entry measured), 40 rows per
// frame, from the tail to the top and around again. With the default cache budget, pages whose
// entries were evicted are rendered again; with an unlimited budget only the
// walk from the tail to the window is left.
func BenchmarkScroll(b *testing.B) {
	for _, c := range []struct {
		name   string
		budget int
	}{{"budget=default", defaultCacheBudget}, {"budget=unlimited", 1 << 40}} {
		b.Run(c.name, func(b *testing.B) {
			r := NewRenderer(DefaultStyles())
			r.tr.budget = c.budget
			es, total := buildTranscript(b, r, 100_000, 120, 40)
			for up := 0; up < total; up += 40 { // one pass first: the steady state
				r.Render(benchFrame(es, 120, 40, up))
			}
			defer b.ReportMetric(float64(total), "rows")
			b.ReportAllocs()
			up := 0
			for b.Loop() {
				up = (up + 40) % total
				r.Render(benchFrame(es, 120, 40, up))
			}
		})
	}
}

// BenchmarkTranscriptHeap is P5 (docs/architecture.md, Performance): a transcript of 10 MB of reply text, every entry
// rendered once (scrolled through to the top), then the live heap after a GC, reported as a
// multiple of the text's size ("x-heap"; must stay under 3). Run with -benchtime=1x.
func BenchmarkTranscriptHeap(b *testing.B) {
	for _, st := range []struct {
		name   string
		styles Styles
	}{{"colour", DefaultStyles()}, {"plain", PlainStyles()}} {
		b.Run(st.name, func(b *testing.B) {
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				var es []*draft
				size := 0
				for i := 0; size < 10<<20; i++ {
					e := &draft{Role: transcript.RoleAssistant, Text: strings.Clone(replyText(i))}
					es = append(es, e)
					size += len(e.Text)
				}
				r := NewRenderer(st.styles)
				scr := r.Render(benchFrame(es, 120, 40, 1<<40))
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap := float64(after.HeapAlloc - before.HeapAlloc)
				b.ReportMetric(heap/float64(size), "x-heap")
				b.ReportMetric(float64(size)/(1<<20), "MB-text")
				b.ReportMetric(float64(scr.MaxScroll+scr.TranscriptHeight), "rows")
				runtime.KeepAlive(es)
				runtime.KeepAlive(r)
			}
		})
	}
}

// streamTexts are whole replies streamed delta by delta: a 39 KB reply that is one line (no
// newline at all), the same bytes broken into short lines, a 30 KB markdown reply (headings,
// lists, emphasis, a table, fenced code) cut into 4-byte deltas, and a 39 KB line of code in a
// fenced block.
func streamTexts() []struct {
	name   string
	text   string
	deltas int
} {
	sentence := "The renderer keeps every complete line and wraps only the new text of the open one. "
	var one strings.Builder
	for one.Len() < 39<<10 {
		one.WriteString(sentence)
	}
	single := one.String()
	short := strings.ReplaceAll(single, ". ", ".\n")
	var md strings.Builder
	for i := 0; md.Len() < 30<<10; i++ {
		fmt.Fprintf(&md, "## Step %d\n\nSome **bold** and *italic* text with `code` and a [link](https://example.com/%d).\n\n", i, i)
		md.WriteString("- first point\n  - nested point with more words to wrap\n- second point\n\n1. one\n2. two\n\n")
		md.WriteString("| Name | Value |\n|---|---|\n| alpha | 1 |\n| beta | 22 |\n\n")
		md.WriteString("```go\nfunc f(x int) int {\n\treturn x * 2 // doubled\n}\n```\n\n> a quoted line\n\n")
	}
	return []struct {
		name   string
		text   string
		deltas int
	}{
		{"single-line-39KB", single, 8000},
		{"short-lines-39KB", short, 8000},
		{"markdown-30KB-4B", md.String(), md.Len() / 4},
		{"code-line-39KB", "```json\n" + strings.Repeat(`{"key": "value", "n": 12345}, `, (39<<10)/30), 8000},
	}
}

// splitDeltas cuts text into n pieces of about equal size, never inside a UTF-8 sequence.
func splitDeltas(text string, n int) []string {
	size := max(1, len(text)/n)
	var out []string
	for len(text) > 0 {
		k := min(size, len(text))
		for k < len(text) && !utf8.RuneStart(text[k]) {
			k++
		}
		out = append(out, text[:k])
		text = text[k:]
	}
	return out
}

// BenchmarkStreamReply streams one whole reply into a short transcript at 120x40, rendering
// the screen after every delta; one op is the whole reply, ns/delta what one delta costs.
func BenchmarkStreamReply(b *testing.B) {
	for _, c := range streamTexts() {
		b.Run(c.name, func(b *testing.B) {
			deltas := splitDeltas(c.text, c.deltas)
			b.ReportAllocs()
			for b.Loop() {
				r := NewRenderer(DefaultStyles())
				reply := &draft{Role: transcript.RoleAssistant, Streaming: true}
				es := []*draft{{Role: transcript.RoleUser, Text: "Write it all."}, reply}
				f := benchFrame(es, 120, 40, 0)
				var text phase.Text
				for _, d := range deltas {
					text = text.Append(d)
					reply.Text = text.String()
					reply.entry()
					r.Render(f)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(deltas)), "ns/delta")
		})
	}
}

// BenchmarkHugeReplyHeap streams one 20 MB markdown reply (paragraphs, lists, code) in 64 KB
// deltas, rendering after each, then finishes it: the live heap after a GC as a multiple of
// the text's size ("x-heap"), the text itself included. Run with -benchtime=1x.
func BenchmarkHugeReplyHeap(b *testing.B) {
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var sb strings.Builder
		for i := 0; sb.Len() < hugeReply; i++ {
			sb.WriteString(replyText(i))
			sb.WriteString("\n\n")
		}
		text := sb.String()
		sb = strings.Builder{}
		reply := &draft{Role: transcript.RoleAssistant, Streaming: true}
		r := NewRenderer(DefaultStyles())
		f := benchFrame([]*draft{reply}, 120, 40, 0)
		for pos := 0; pos < len(text); pos += 64 << 10 {
			reply.Text = text[:min(len(text), pos+64<<10)]
			reply.entry()
			r.Render(f)
		}
		reply.Streaming = false
		reply.entry()
		r.Render(f)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(text)), "x-heap")
		runtime.KeepAlive(r)
		runtime.KeepAlive(reply)
	}
}

// hugeReply is BenchmarkHugeReplyHeap's reply size.
const hugeReply = 20 << 20

// BenchmarkResizeLongReply alternates the width of a screen showing the tail of one long reply
// (about 100 KB of markdown) between 120 and 100 columns: each resize lays the reply out anew.
func BenchmarkResizeLongReply(b *testing.B) { benchResizeReply(b, 100<<10) }

// BenchmarkResizeHugeReply is BenchmarkResizeLongReply with a reply of about 1 MB.
func BenchmarkResizeHugeReply(b *testing.B) { benchResizeReply(b, 1<<20) }

func benchResizeReply(b *testing.B, size int) {
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString(replyText(i))
		sb.WriteString("\n\n")
	}
	es := []*draft{{Role: transcript.RoleUser, Text: "Explain everything."}, {Role: transcript.RoleAssistant, Text: sb.String()}}
	r := NewRenderer(DefaultStyles())
	r.Render(benchFrame(es, 120, 40, 0))
	b.ReportAllocs()
	i := 1
	for b.Loop() {
		r.Render(benchFrame(es, 120-20*(i%2), 40, 0))
		i++
	}
}
