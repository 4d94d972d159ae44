package tmux

import (
	"os"
	"path/filepath"
	"testing"
)

// Two providers in a config file, each a fixture server on its own loopback port:
// -m second/text talks to the second; Ctrl+P switches to the first mid-session, and the next
// request goes there with the conversation so far; the footer names the provider and model.
func TestTUIProvidersAndTheModelPicker(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	first, second := startFixtures(t), startFixtures(t)
	env := hermeticEnv(t)
	cfgDir := t.TempDir()
	cfg := filepath.Join(cfgDir, "config.toml")
	text := "default = \"first\"\n" +
		"[provider.first]\nbase_url = \"" + first.URL + "/v1\"\nmodels = [\"text\", \"reasoning\"]\n" +
		"[provider.second]\nbase_url = \"" + second.URL + "/v1\"\nmodels = [\"text\"]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	argv := []string{phasechatBinary(t), "--config", cfg, "-m", "second/text", "--no-save"}
	p := newProgramPane(t, 100, 30, t.TempDir(), env, argv)
	p.waitFor(idleStatus, "second/text")
	p.typeText("hello")
	p.keys("Enter")
	p.waitFor("Answer ready.")
	waitCount(t, "requests to the second provider", &second.started, 1)

	p.keys("C-p")
	p.waitFor("Switch model", "first/reasoning", "second/text")
	p.typeText("first/reas")
	p.keys("Enter")
	p.waitFor("Switched to first/reasoning", "first/reasoning")
	p.typeText("and you?")
	p.keys("Enter")
	p.waitFor("I thought about it first", "Answer ready.")
	waitCount(t, "requests to the first provider", &first.started, 1)
	if n := second.started.Load(); n != 1 {
		t.Fatalf("the second provider got %d requests, want 1", n)
	}
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s", status)
	}
}
