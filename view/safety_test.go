package view

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

// channel puts one untrusted string where the model would: it returns the frame to draw and
// whether the input's Visible marker must appear as is (the status line rewrites JSON
// punctuation, so only cleanliness is checked there).
type channel struct {
	name    string
	frame   func(in string) Frame
	visible bool
}

func hostileFrame(entries ...*draft) Frame {
	return Frame{Width: 200, Height: 60, Entries: published(entries), Composer: "┃ ", ComposerCursor: true,
		Help: []Key{{Keys: "enter", Does: "send"}}, Footer: Footer{Model: "m"}}
}

func assistantWith(c draftCard) *draft {
	return &draft{Role: transcript.RoleAssistant, Text: "ok", Cards: []draftCard{c}}
}

var channels = []channel{
	{"assistant-text", func(in string) Frame { return hostileFrame(&draft{Role: transcript.RoleAssistant, Text: in}) }, true},
	{"assistant-text-streaming", func(in string) Frame {
		return hostileFrame(&draft{Role: transcript.RoleAssistant, Text: in, Streaming: true})
	}, true},
	{"assistant-text-block", func(in string) Frame {
		return hostileFrame(&draft{Role: transcript.RoleAssistant, Text: "intro\n\n" + in + "\n\nafter", Streaming: true})
	}, true},
	{"reasoning-unfolded", func(in string) Frame {
		return hostileFrame(&draft{Role: transcript.RoleAssistant, Reasoning: in, Expanded: true})
	}, true},
	{"reasoning-folded-streaming", func(in string) Frame {
		return hostileFrame(&draft{Role: transcript.RoleAssistant, Reasoning: in, Streaming: true})
	}, true},
	{"card-name", func(in string) Frame {
		return hostileFrame(assistantWith(draftCard{Name: in, Status: phase.CallRunning}))
	}, true},
	{"card-summary", func(in string) Frame {
		return hostileFrame(assistantWith(draftCard{Name: "t", Summary: in, Status: phase.CallRunning}))
	}, true},
	{"card-args-expanded", func(in string) Frame {
		return hostileFrame(assistantWith(draftCard{Name: "t", Args: in, Status: phase.CallRunning, Expanded: true}))
	}, true},
	{"card-result", func(in string) Frame {
		return hostileFrame(assistantWith(draftCard{Name: "t", Result: in, Status: phase.CallDone}))
	}, true},
	{"card-result-expanded", func(in string) Frame {
		return hostileFrame(assistantWith(draftCard{Name: "t", Result: in, Status: phase.CallError, Expanded: true}))
	}, true},
	{"error-note", func(in string) Frame {
		return hostileFrame(&draft{Role: transcript.RoleAssistant, Text: "partial", Mark: transcript.MarkFailed, Note: in})
	}, true},
	{"user-text", func(in string) Frame { return hostileFrame(&draft{Role: transcript.RoleUser, Text: in}) }, true},
	{"notice", func(in string) Frame { return hostileFrame(&draft{Role: transcript.RoleNotice, Text: in}) }, true},
	{"footer-model", func(in string) Frame {
		f := hostileFrame()
		f.Footer.Model = in
		return f
	}, true},
	{"status-error-reason", func(in string) Frame {
		f := hostileFrame()
		f.State = phase.State{Phase: phase.Error, Reason: in}
		return f
	}, false},
}

// visibleIn is the marker a channel must show for h, if any. Expanded cards show arguments and
// results decoded, so the JSON text's escaped ESC appears as the decoded ESC's stand-in.
// Folded reasoning shows only its newest line, so it owes only a one-line input's marker.
func visibleIn(ch channel, h safetest.HostileInput) (string, bool) {
	switch {
	case strings.HasSuffix(ch.name, "-expanded") && h.Name == "json-escaped-esc-in-arguments":
		return "␛[2J", true
	case ch.name == "reasoning-folded-streaming" && strings.Contains(h.Input, "\n"):
		return "", false
	case ch.name == "card-name": // a name reads as it does on the status line
		return safe.ToolName(h.Input), ch.visible
	}
	return h.Visible, ch.visible
}

// TestHostileInputsInEveryChannel feeds every hostile input through every channel. In plain
// mode the screen must be clean (no escape, no control, no bidi …) and show the attack's
// visible form; in colour mode every escape sequence on screen must be an SGR.
func TestHostileInputsInEveryChannel(t *testing.T) {
	for _, ch := range channels {
		for _, h := range safetest.HostileInputs {
			t.Run(ch.name+"/"+h.Name, func(t *testing.T) {
				scr := NewRenderer(PlainStyles()).Render(ch.frame(h.Input))
				if err := safetest.CheckClean(scr.Content); err != nil {
					t.Fatalf("plain screen not clean: %v\n%s", err, scr.Content)
				}
				if strings.Contains(scr.Content, "\x1b") {
					t.Fatalf("plain screen holds an escape:\n%q", scr.Content)
				}
				flat := strings.ReplaceAll(scr.Content, "\n", "")
				if want, ok := visibleIn(ch, h); ok && !strings.Contains(flat, want) {
					t.Fatalf("screen does not show %q:\n%s", want, scr.Content)
				}
				colour := NewRenderer(DefaultStyles()).Render(ch.frame(h.Input))
				if err := onlySGR(colour.Content); err != "" {
					t.Fatalf("colour screen: %s", err)
				}
			})
		}
	}
}

// TestHostileDeltasAccumulate streams inputs whose point is the split, delta by delta, into a
// streaming reply and its reasoning: the screen after each delta and at the end is clean.
func TestHostileDeltasAccumulate(t *testing.T) {
	for _, h := range safetest.HostileInputs {
		if h.Deltas == nil {
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			r := NewRenderer(PlainStyles())
			e := &draft{Role: transcript.RoleAssistant, Streaming: true, Expanded: true}
			f := hostileFrame(e)
			for _, d := range h.Deltas {
				e.Text += d
				e.Reasoning += d
				e.entry()
				if err := safetest.CheckClean(r.Render(f).Content); err != nil {
					t.Fatalf("after delta %q: %v", d, err)
				}
			}
			e.Streaming = false
			e.entry()
			scr := r.Render(f)
			if err := safetest.CheckClean(scr.Content); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(strings.ReplaceAll(scr.Content, "\n", ""), h.Visible); got != 2 {
				t.Fatalf("want %q in the reply and the reasoning, found %d:\n%s", h.Visible, got, scr.Content)
			}
		})
	}
}

// TestMarkdownCannotReintroduceEscapes covers what markdown could add after the sanitiser:
// numeric character references decoded to controls, and OSC 8 hyperlinks for links.
func TestMarkdownCannotReintroduceEscapes(t *testing.T) {
	tests := []struct{ name, text, visible string }{
		{"decimal-esc-ref", "a &#27;[2J b", "␛[2J"},
		{"hex-c1-csi-ref", "a &#x9b;31m b", "<U+009B>31m"},
		{"bel-ref", "ding&#7;", "ding␇"},
		{"bidi-ref", "x&#x202E;y", "x<U+202E>y"},
		{"named-bidi-ref", "x&rlm;y", "x<U+200F>y"},
		{"named-zero-width-ref", "pay&ZeroWidthSpace;pal", "pay<U+200B>pal"},
		{"link", "see [docs](https://evil.example/x)", "docs"},
		{"autolink", "see <https://evil.example/y>", "https://evil.example/y"},
		{"bare-url", "see https://evil.example/z now", "https://evil.example/z"},
		{"ref-in-code-span", "`&#27;[2J`", "␛[2J"},
		{"ref-in-code-block", "```\n&#27;]0;title&#7;\n```", "␛]0;title␇"},
	}
	for _, tt := range tests {
		for _, streaming := range []bool{false, true} {
			f := hostileFrame(&draft{Role: transcript.RoleAssistant, Text: tt.text + "\n\nnext", Streaming: streaming})
			scr := NewRenderer(PlainStyles()).Render(f)
			if err := safetest.CheckClean(scr.Content); err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			if !strings.Contains(scr.Content, tt.visible) {
				t.Errorf("%s: want %q on screen:\n%s", tt.name, tt.visible, scr.Content)
			}
			if err := onlySGR(NewRenderer(DefaultStyles()).Render(f).Content); err != "" {
				t.Errorf("%s colour: %s", tt.name, err)
			}
		}
	}
}

// onlySGR returns what is wrong when s holds an escape sequence other than an SGR, or any
// other byte the sanitiser would replace, or "" when there is none. It parses with x/ansi, not
// with the code under test.
func onlySGR(s string) string {
	var state byte
	for len(s) > 0 {
		seq, _, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		switch {
		case strings.HasPrefix(seq, "\x1b"):
			if !sgrPattern.MatchString(seq) {
				return fmt.Sprintf("non-SGR escape %q", seq)
			}
		case seq == "\n":
		default:
			if err := safetest.CheckClean(seq); err != nil {
				return err.Error()
			}
		}
		s = s[n:]
	}
	return ""
}

var sgrPattern = regexp.MustCompile(`^\x1b\[[0-9;:]*m$`)
