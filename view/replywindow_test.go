package view

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/markdown"
)

// TestResizeDrawsOnlyWhatTheWindowShows: after a resize, the window on the tail of a long
// reply draws a few pages of it, and its height is still exact.
func TestResizeDrawsOnlyWhatTheWindowShows(t *testing.T) {
	var sb strings.Builder
	for i := range 400 {
		fmt.Fprintf(&sb, "Line %d of a long reply, long enough to wrap at a narrow width of the terminal.\n", i)
	}
	es := []*draft{{Role: transcript.RoleUser, Text: "go"}, {Role: transcript.RoleAssistant, Text: sb.String()}}
	r := NewRenderer(PlainStyles())
	r.Render(transcriptFrame(es, 120, 30, 0))
	if drawn := r.tr.pen.md.LinesDrawn; drawn > 3*markdown.PageLines {
		t.Fatalf("drawn for the first time, the reply drew %d complete lines for a window of 30 rows", drawn)
	}
	for _, w := range []int{60, 120, 40} {
		f := transcriptFrame(es, w, 30, 0)
		scr := r.Render(f)
		if drawn := r.tr.pen.md.LinesDrawn; drawn > 3*markdown.PageLines {
			t.Fatalf("at %d columns %d complete lines were drawn for a window of 30 rows", w, drawn)
		}
		fresh := NewRenderer(PlainStyles())
		want := fresh.Render(f)
		if scr.Content != want.Content {
			t.Fatalf("at %d columns:\n%s\nwant\n%s", w, scr.Content, want.Content)
		}
		top := transcriptFrame(es, w, 30, 1<<30)
		if got, want := r.Render(top), fresh.Render(top); got.Content != want.Content || got.MaxScroll != want.MaxScroll {
			t.Fatalf("at %d columns, scrolled to the top: max scroll %d, a fresh renderer's %d\n%s\nwant\n%s", w, got.MaxScroll, want.MaxScroll, got.Content, want.Content)
		}
	}
}

// TestAWindowOnTheTailOfALongReplyDrawsEachLineOnce: while a reply far longer than the rows
// it keeps drawn streams, a window following its tail never needs a line drawn again.
func TestAWindowOnTheTailOfALongReplyDrawsEachLineOnce(t *testing.T) {
	reply := &draft{Role: transcript.RoleAssistant, Streaming: true}
	es := append(numbered(3), reply)
	r := NewRenderer(PlainStyles())
	f := transcriptFrame(es, 80, 60, 0)
	const lines = 3 * markdown.TailPages * markdown.PageLines
	for i := range lines {
		reply.Text += fmt.Sprintf("Line %d of a reply longer than the rows it keeps drawn.\n", i)
		if i%7 == 0 {
			reply.Text += "\n"
		}
		reply.entry()
		r.Render(f)
	}
	if got := r.tr.pen.md.LinesDrawn; got != lines+lines/7+1 {
		t.Fatalf("%d complete lines drawn for a reply of %d", got, lines+lines/7+1)
	}
}

// TestRendererMeasureOption: WithMeasure reaches the reply's lines.
func TestRendererMeasureOption(t *testing.T) {
	e := &draft{Role: transcript.RoleAssistant, Text: strings.Repeat("word ", 60)}
	f := hostileFrame(e)
	f.Width = 200
	for _, measure := range []int{0, 40} {
		scr := NewRenderer(PlainStyles(), WithMeasure(measure)).Render(f)
		want := markdown.DefaultMeasure
		if measure > 0 {
			want = measure
		}
		widest := 0
		for _, l := range strings.Split(scr.Content, "\n") {
			if strings.HasPrefix(l, "  word") {
				widest = max(widest, len(strings.TrimRight(l, " "))-2)
			}
		}
		if widest > want || widest < want-5 {
			t.Errorf("measure %d: widest reply line %d cells, want about %d", measure, widest, want)
		}
	}
}
