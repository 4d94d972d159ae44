package tmux

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// A catalogued model (gpt-4o-mini: a 128k window, $0.15 and $0.60 per million tokens) answers
// with usage: after the reply the footer shows how full the context is and what it cost.
func TestTUIFooterShowsContextFillAndCost(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	text := "description A text reply with a usage report of 31,990 prompt and 10 completion tokens.\n" +
		"usage 31990 10\nevery 30ms\ntext \"Counting.\"\nfinish stop\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gpt-4o-mini.scenario"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := startFixturesWith(t, fixtures.Options{Pace: 1, Dir: dir})
	p := fs.newChatPane(t, 120, 30, "gpt-4o-mini", "--no-save")
	p.waitFor(idleStatus)
	p.neverShowed("ctx ")
	p.typeText("hello")
	p.keys("Enter")
	// 31,990 prompt tokens at $0.15 and 10 completion tokens at $0.60 per million: $0.0048.
	p.waitFor("Answer ready.", "ctx 25% of 128k", "$0.0048")
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s", status)
	}
}

// Typing a model's exact name in the picker chooses it, though a longer name holding it comes
// first in the list.
func TestTUIPickerChoosesTheExactName(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	text := "[provider.fx]\nbase_url = \"" + fs.URL + "/v1\"\nmodels = [\"text-then-tool\", \"tool-then-text\", \"text\"]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newProgramPane(t, 100, 30, t.TempDir(), hermeticEnv(t), []string{phasechatBinary(t), "--config", cfg, "-m", "fx/tool-then-text", "--no-save"})
	p.waitFor(idleStatus, "fx/tool-then-text")
	p.keys("C-p")
	p.waitFor("Switch model", "fx/text-then-tool", "current")
	p.typeText("fx/text")
	p.keys("Enter")
	p.waitFor("Switched to fx/text:")
	p.typeText("hello")
	p.keys("Enter")
	p.waitFor("Answer ready.", "This is a plain streamed reply")
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s", status)
	}
}

// Esc before the reply's first byte (the server sent its headers, then nothing) puts the
// message back into the composer, not sent; Enter sends it again.
func TestTUIEscBeforeTheFirstByteGivesThePromptBack(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixtures(t)
	p := fs.newChatPane(t, 100, 30, "stall", "--no-save")
	p.waitFor(idleStatus)
	p.typeText("second thoughts")
	p.keys("Enter")
	waitCount(t, "requests", &fs.started, 1)
	p.keys("Escape")
	p.waitFor("Stopped before the reply began", "│ second thoughts")
	p.keys("C-c")
	p.waitFor("Draft cleared") // the composer holds the message again
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s", status)
	}
}
