package tmux

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

// The demo's welcome, in colour: its shell example is highlighted as shell, where gpt-4o-mini
// is one word, so no part of the model's name is coloured as a number; the block's fences are
// drawn as rules naming the language, not as the backticks written.
func TestTUIDemoShellExampleKeepsTheModelNameWhole(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	env := withoutVar(hermeticEnv(t), "NO_COLOR")
	p := newProgramPane(t, 100, 40, t.TempDir(), env, []string{phasechatBinary(t), "--theme", "dark"})
	p.waitFor(idleStatus)
	p.typeLine("hello")
	screen := p.waitFor("phasechat --model gpt-4o-mini", "Answer ready.")
	if strings.Contains(screen, "```") || !strings.Contains(screen, "─── sh") {
		t.Fatalf("the code block's fences are drawn as written:\n%s", screen)
	}
	var styled string
	if !testwait.For(t, func() bool {
		styled = p.run("capture-pane", "-e", "-p", "-t", "e2e")
		return strings.Contains(styled, "Answer ready.")
	}) {
		t.Fatal("no styled screen")
	}
	for _, row := range strings.Split(styled, "\n") {
		if strings.Contains(sgrSeq.ReplaceAllString(row, ""), "gpt-4o-mini") && !strings.Contains(row, "gpt-4o-mini") {
			t.Fatalf("the model's name is split by styling: %q", row)
		}
	}
}
