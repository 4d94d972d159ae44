package view

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase/transcript"
)

var sampleReplies = []string{
	"# Plan\n\nI will **read** the file and `grep` it.\n\n- one\n- two\n  continued\n\n1. first\n2. second\n\n```go\nfunc main() {\n\n\tprintln(\"hi\")\n}\n```\n\n> quoted\n> text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone — 中文 and emoji 👍🏽 and e\u0301.",
	"short",
	"trailing blank lines\n\n\n",
	strings.Repeat("A long paragraph that wraps across several lines of the screen. ", 12) + "\n\n" + strings.Repeat("word ", 50),
}

// TestStreamedEqualsFinished streams replies in random pieces, rendering after each, and
// checks that the finished reply draws exactly as a cold render of the same text, in both
// styles and at two widths: the block cache never leaves a trace.
func TestStreamedEqualsFinished(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, st := range []Styles{PlainStyles(), DefaultStyles()} {
		for _, width := range []int{40, 100} {
			for i, text := range sampleReplies {
				e := &draft{Role: transcript.RoleAssistant, Streaming: true}
				f := hostileFrame(e)
				f.Width, f.Height = width, 80
				r := NewRenderer(st)
				for pos := 0; pos < len(text); {
					n := min(len(text)-pos, 1+rng.IntN(12))
					e.Text += text[pos : pos+n]
					e.entry()
					pos += n
					r.Render(f)
				}
				e.Streaming = false
				e.entry()
				got := r.Render(f).Content
				want := NewRenderer(st).Render(f).Content
				if got != want {
					t.Errorf("reply %d width %d colour %v: streamed render differs from cold render\nstreamed:\n%s\ncold:\n%s", i, width, st.Color, got, want)
				}
			}
		}
	}
}

// TestTailFollowsText checks the open block while streaming: what is drawn holds the text
// so far, and a reply whose text is replaced (not extended) is drawn afresh.
func TestTailFollowsText(t *testing.T) {
	e := &draft{Role: transcript.RoleAssistant, Streaming: true, Text: "first paragraph\n\nsecond is stre"}
	f := hostileFrame(e)
	r := NewRenderer(PlainStyles())
	if c := r.Render(f).Content; !strings.Contains(c, "  second is stre\n") || !strings.Contains(c, "  first paragraph") {
		t.Fatalf("streaming tail not drawn:\n%s", c)
	}
	e.Text += "aming"
	e.entry()
	if c := r.Render(f).Content; !strings.Contains(c, "  second is streaming\n") {
		t.Fatalf("appended token not drawn:\n%s", c)
	}
	e.Text = "something else entirely"
	e.entry()
	c := r.Render(f).Content
	if strings.Contains(c, "paragraph") || !strings.Contains(c, "something else entirely") {
		t.Fatalf("replaced text not redrawn:\n%s", c)
	}
}
