package app

import (
	"context"
	"github.com/phasechat/phasechat/internal/secret"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/config"
)

func mustParse(t *testing.T, text string) *config.File {
	t.Helper()
	f, err := config.Parse([]byte(text), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func envOf(kv map[string]string) Lookup {
	return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
}

func TestKeyCommand(t *testing.T) {
	ctx := context.Background()
	if key, err := RunKeyCommand(ctx, []string{"sh", "-c", "printf '  sk-from-cmd\\n\\n'"}, 10*time.Second); err != nil || key != "sk-from-cmd" {
		t.Errorf("success: %q, %v", key, err)
	}
	// A failing command may have printed the key: the error never shows its output.
	_, err := RunKeyCommand(ctx, []string{"sh", "-c", "echo sk-secret-printed; echo 'gpg: decryption failed' >&2; exit 3"}, 10*time.Second)
	if err == nil || strings.Contains(err.Error(), "sk-secret-printed") || !strings.Contains(err.Error(), "exit status 3") ||
		!strings.Contains(err.Error(), "gpg: decryption failed") {
		t.Errorf("failure: %v", err)
	}
	_, err = RunKeyCommand(ctx, []string{"sh", "-c", "echo sk-half-done; exec sleep 60"}, 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not finish within 200ms") || strings.Contains(err.Error(), "sk-half-done") {
		t.Errorf("timeout: %v", err)
	}
	if _, err = RunKeyCommand(ctx, []string{"phasechat-no-such-program"}, time.Second); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing program: %v", err)
	}
	if _, err = RunKeyCommand(ctx, []string{"true"}, time.Second); err == nil || !strings.Contains(err.Error(), "printed nothing") {
		t.Errorf("no output: %v", err)
	}
	if _, err = RunKeyCommand(ctx, []string{"printf", "a\nb\n"}, time.Second); err == nil || !strings.Contains(err.Error(), "more than one line") {
		t.Errorf("two lines: %v", err)
	}
	// No shell: metacharacters are arguments.
	if key, err := RunKeyCommand(ctx, []string{"echo", "$HOME;", "x"}, time.Second); err != nil || key != "$HOME; x" {
		t.Errorf("no shell: %q, %v", key, err)
	}
}

func TestResolveRunsTheKeyCommandOnce(t *testing.T) {
	count := filepath.Join(t.TempDir(), "runs")
	f := mustParse(t, `[provider.p]
base_url = "http://127.0.0.1:1/v1"
api_key_cmd = ["sh", "-c", "echo run >> `+count+`; echo sk-cmd-key"]
`)
	r := &Resolver{File: f, Env: envOf(nil)}
	for range 3 {
		ep, err := r.Resolve(context.Background(), "p")
		if err != nil || ep.APIKey != "sk-cmd-key" {
			t.Fatalf("%+v, %v", ep, err)
		}
	}
	data, _ := os.ReadFile(count)
	if n := strings.Count(string(data), "run"); n != 1 {
		t.Errorf("the key command ran %d times, want once", n)
	}
}

// A key command that failed runs again on the next request: a Retry after the user fixed
// it (unlocked the password store) gets the key.
func TestResolveRunsAFailedKeyCommandAgain(t *testing.T) {
	dir := t.TempDir()
	ready := filepath.Join(dir, "ready")
	f := mustParse(t, `[provider.p]
base_url = "http://127.0.0.1:1/v1"
api_key_cmd = ["sh", "-c", "cat `+ready+`"]
`)
	r := &Resolver{File: f, Env: envOf(nil)}
	if _, err := r.Resolve(context.Background(), "p"); err == nil || !strings.Contains(err.Error(), "api_key_cmd") {
		t.Fatalf("a failing key command resolved: %v", err)
	}
	if err := os.WriteFile(ready, []byte("sk-now\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ep, err := r.Resolve(context.Background(), "p"); err != nil || ep.APIKey != "sk-now" {
		t.Fatalf("after the fix: %+v, %v", ep, err)
	}
}

func TestResolveKeysAndHeaders(t *testing.T) {
	f := mustParse(t, `default = "main"
[provider.main]
base_url = "https://main.example/v1"
headers = { "X-Org" = "org-${ORG}", "X-Plain" = "v", "X-Api-Key" = "hk-${ORG}", "X-Title" = "phasechat" }

[provider.other]
base_url = "http://127.0.0.1:1/v1"

[provider.named]
base_url = "http://127.0.0.1:2/v1"
api_key_env = "NAMED_KEY"

[provider.lit]
base_url = "http://127.0.0.1:3/v1"
api_key = "sk-literal"

[provider.badheader]
base_url = "http://127.0.0.1:4/v1"
headers = { "X-A" = "${MISSING}" }
`)
	r := &Resolver{File: f, Env: envOf(map[string]string{"OPENAI_API_KEY": "sk-openai", "ORG": "42", "NAMED_KEY": " sk-named "})}
	ctx := context.Background()
	main, err := r.Resolve(ctx, "main")
	if err != nil || main.APIKey != "sk-openai" || main.Headers["X-Org"] != "org-42" || main.Headers["X-Plain"] != "v" {
		t.Errorf("main: %+v %v", main, err)
	}
	set := secret.New()
	main.AddSecrets(set, f.Providers["main"].Headers)
	for _, s := range []string{"sk-openai", "hk-42"} {
		if !set.Contains(s) {
			t.Errorf("the secrets miss %q", s)
		}
	}
	for _, word := range []string{"org-42", "phasechat"} { // not credential headers: words that stay readable
		if set.Contains(word) {
			t.Errorf("the header value %q is taken for a secret", word)
		}
	}
	if other, err := r.Resolve(ctx, "other"); err != nil || other.APIKey != "" {
		t.Errorf("a provider other than the default never gets OPENAI_API_KEY: %+v %v", other, err)
	}
	if named, err := r.Resolve(ctx, "named"); err != nil || named.APIKey != "sk-named" {
		t.Errorf("named: %+v %v", named, err)
	}
	if lit, err := r.Resolve(ctx, "lit"); err != nil || lit.APIKey != "sk-literal" {
		t.Errorf("lit: %+v %v", lit, err)
	}
	if _, err := r.Resolve(ctx, "badheader"); err == nil || !strings.Contains(err.Error(), "provider.badheader.headers.X-A: the environment variable MISSING is not set") {
		t.Errorf("badheader: %v", err)
	}
	if _, err := r.Resolve(ctx, "nope"); err == nil || !strings.Contains(err.Error(), `no provider named "nope"`) {
		t.Errorf("nope: %v", err)
	}
	anth := mustParse(t, "[provider.a]\ntype = \"anthropic\"\nbase_url = \"https://api.anthropic.com/v1\"\n")
	ra := &Resolver{File: anth, Env: envOf(map[string]string{"OPENAI_API_KEY": "sk-openai", "ANTHROPIC_API_KEY": "sk-ant"})}
	if ep, err := ra.Resolve(ctx, "a"); err != nil || ep.APIKey != "sk-ant" {
		t.Errorf("an anthropic default provider reads ANTHROPIC_API_KEY: %+v %v", ep, err)
	}
	r2 := &Resolver{File: f, Env: envOf(nil)}
	if _, err := r2.Resolve(ctx, "named"); err == nil || !strings.Contains(err.Error(), "NAMED_KEY is not set") {
		t.Errorf("unset api_key_env: %v", err)
	}
}

// A key command that prints without end is stopped once it passes the cap, and says so; it
// is not read until its timeout.
func TestAnEndlessKeyCommandIsStoppedAtTheCap(t *testing.T) {
	_, err := RunKeyCommand(context.Background(), []string{"sh", "-c", "exec cat /dev/zero"}, time.Hour)
	if err == nil || !strings.Contains(err.Error(), "printed more than 64 KiB and was stopped") {
		t.Fatalf("an endless key command: %v", err)
	}
}
