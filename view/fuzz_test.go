package view

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

// FuzzCleanStyled: whatever a renderer emits, the plain result holds no escape and nothing the
// sanitiser would replace, the colour result holds only SGR escapes, and the mono result only
// SGR escapes that set no colour, around the same text.
func FuzzCleanStyled(f *testing.F) {
	f.Add("\x1b[38;5;252mhi\x1b[m\x1b]8;;u\adocs\x1b]8;;\a")
	f.Add("\x1b[1\x07\x1bP+q\x1b\\\x9b\xc2\x9b\u202e")
	f.Add("\x1b")
	f.Add("\x1b[1;38;2;1;2;3;48:5:9;4:3;58;5;1;91mx\x1b[;39m")
	f.Fuzz(func(t *testing.T, s string) {
		if err := safetest.CheckClean(cleanStyled(s, keepNone)); err != nil {
			t.Fatalf("plain: %v", err)
		}
		colour, mono := cleanStyled(s, keepSGR), cleanStyled(s, keepAttributes)
		if msg := onlySGR(colour); msg != "" {
			t.Fatalf("colour: %s", msg)
		}
		if msg := onlySGR(mono); msg != "" {
			t.Fatalf("mono: %s", msg)
		}
		if msg := colourSGR(mono); msg != "" {
			t.Fatalf("mono: %s", msg)
		}
		if ansi.Strip(mono) != ansi.Strip(colour) {
			t.Fatalf("mono and colour differ in text: %q, %q", mono, colour)
		}
	})
}

// FuzzRenderReply streams arbitrary text (cut where the fuzzer says) into a reply, its
// reasoning and a tool card, rendering after each piece: every screen is clean and keeps its
// shape, and the finished reply draws as a cold render of the same text does.
func FuzzRenderReply(f *testing.F) {
	f.Add("# T\n\npara &#27;[2J\n\n```\na\n\nb\n```\n\n- x\n  y\n\nend", uint8(3), uint8(40))
	f.Add("\x1b]8;;https://e/\x1b\\l\x1b]8;;\x1b\\ 中文 e\u0301 👍🏽\t|a|b|\n|-|-|", uint8(1), uint8(7))
	f.Add("{\"cmd\":\"\\u001b[2J\"}\n\n\n", uint8(5), uint8(20))
	f.Fuzz(func(t *testing.T, text string, step, width uint8) {
		w := 1 + int(width)%120
		n := 1 + int(step)%16
		e := &draft{Role: transcript.RoleAssistant, Streaming: true, Expanded: true,
			Cards: []draftCard{{Name: "t", Status: phase.CallDone, Expanded: true}}}
		fr := hostileFrame(e)
		fr.Width, fr.Height = w, 30
		r := NewRenderer(PlainStyles())
		for i := 0; i < len(text); i += n {
			e.Text = text[:min(len(text), i+n)]
			e.Reasoning, e.Cards[0].Args, e.Cards[0].Result = e.Text, e.Text, e.Text
			e.entry()
			scr := r.Render(fr)
			if err := safetest.CheckClean(scr.Content); err != nil {
				t.Fatalf("screen not clean: %v", err)
			}
			checkShape(t, scr.Content, w, 30)
		}
		e.Streaming = false
		e.entry()
		got := r.Render(fr).Content
		if want := NewRenderer(PlainStyles()).Render(fr).Content; got != want {
			t.Fatalf("streamed render differs from cold render:\n%s\n--\n%s", got, want)
		}
		if strings.Contains(got, "\x1b") {
			t.Fatal("plain screen holds an escape")
		}
	})
}
