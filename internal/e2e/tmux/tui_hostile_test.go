package tmux

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

// terminalModes are the tmux formats of the pane's modes an application can leave behind:
// its title, the alternate screen, mouse reporting, the cursor, keypad and wrap modes.
const terminalModes = "title=#{pane_title} alt=#{alternate_on} mouse=#{mouse_any_flag}#{mouse_button_flag}" +
	"#{mouse_all_flag}#{mouse_standard_flag}#{mouse_sgr_flag}#{mouse_utf8_flag} cursor=#{cursor_flag}" +
	" keypad=#{keypad_flag}#{keypad_cursor_flag} insert=#{insert_flag} wrap=#{wrap_flag} origin=#{origin_flag}"

// The hostile scenario streams terminal escapes in text, a tool name and its
// arguments: an OSC title, an OSC 52 clipboard write, a screen clear, C1 and bidi controls.
// Run from a shell, phasechat must leave the terminal as it found it: the pane's title and
// modes unchanged, no tmux buffer set, and the lines printed before it still there.
func TestTUIHostile(t *testing.T) { hostileFromAShell(t, false) }

// The same in the inline mode, where the reply is printed into the terminal's own
// scrollback: the escapes are shown there, never obeyed, and the terminal ends as it began.
func TestTUIInlineHostile(t *testing.T) { hostileFromAShell(t, true) }

func hostileFromAShell(t *testing.T, inline bool) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := newPane(t, 100, 30, append(hermeticEnv(t), "PS1=e2e$ "), []string{"sh"})
	p.waitFor("e2e$")
	p.typeText(`printf 'before-%s\n' phasechat; printf '\033]2;e2e-title\033\\'`)
	p.keys("Enter")
	p.waitFor("before-phasechat")
	// tmux may show the first printf's line before it has read the second's title.
	var before string
	if !testwait.For(t, func() bool { before = p.display(terminalModes); return strings.HasPrefix(before, "title=e2e-title ") }) {
		t.Fatalf("the shell could not set the title, so the test could not see it change: %s", before)
	}

	var extra []string
	if inline {
		extra = []string{"--inline"}
	}
	p.typeText(shellJoin(fs.chatArgs(t, "hostile", extra...)))
	p.keys("Enter")
	p.waitFor(idleStatus)
	p.typeText("hi")
	p.keys("Enter")
	screen := p.waitFor("Answer ready.")
	if inline {
		if modes := p.display(terminalModes); !strings.Contains(modes, " alt=0 mouse=000000 ") {
			t.Fatalf("inline, phasechat took the alternate screen or the mouse: %s", modes)
		}
		screen = p.history()
	}
	for _, shown := range []string{"␛[2J", "␛]0;pwned␇", "<U+009B>", "<U+202E>"} {
		if !strings.Contains(screen, shown) {
			t.Fatalf("the escape is not shown as %q:\n%s", shown, screen)
		}
	}
	if title := p.display("#{pane_title}"); title != "e2e-title" {
		t.Fatalf("while phasechat runs the title is %q", title)
	}
	if bufs := p.run("list-buffers"); bufs != "" {
		t.Fatalf("an OSC 52 write reached tmux's paste buffers: %q", bufs)
	}

	p.keys("C-c")
	// Keys typed before the shell prompts again would reach phasechat, still exiting.
	p.waitUntil("the shell's prompt after phasechat", func(s string) bool {
		return strings.Count(s, "e2e$") == 3
	})
	p.typeText("echo after-$((40+2))")
	p.keys("Enter")
	screen = p.waitFor("after-42")
	if !strings.Contains(screen, "before-phasechat\n") {
		t.Fatalf("the lines printed before phasechat are gone:\n%s", screen)
	}
	if after := p.display(terminalModes); after != before {
		t.Fatalf("the terminal's modes changed:\nbefore %s\nafter  %s", before, after)
	}
	p.neverShowed("pwned\a")
}
