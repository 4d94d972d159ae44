package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// provider is a fixture server standing for one provider: it keeps the model and the
// Authorization header of every chat request.
type providerServer struct {
	base string
	mu   sync.Mutex
	got  []string // "model auth"
}

func newProviderServer(t *testing.T) *providerServer {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &providerServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			p.mu.Lock()
			p.got = append(p.got, r.Header.Get("Authorization"))
			p.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.base = srv.URL + "/v1"
	return p
}

func (p *providerServer) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.got...)
}

// TestConfigChoosesTheProvider: flags beat the config file, the config file beats OPENAI_*,
// and with no provider named the file's default is used; the key comes from the provider's
// own source and never shows in the output.
func TestConfigChoosesTheProvider(t *testing.T) {
	first, second, plain := newProviderServer(t), newProviderServer(t), newProviderServer(t)
	data := t.TempDir()
	cfgDir := filepath.Join(data, "config", "phasechat")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := `default = "first"
[provider.first]
base_url = "` + first.base + `"
default_model = "text"
api_key_cmd = ["printf", "sk-from-the-command"]

[provider.second]
base_url = "` + second.base + `"
models = ["reasoning", "text"]
`
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		server *providerServer
		auth   string
		reply  string
	}{
		{"the default provider", nil, first, "Bearer sk-from-the-command", "Hello! This is a plain streamed reply"},
		{"-m provider/model", []string{"-m", "second/text"}, second, "", "Hello! This is a plain streamed reply"},
		{"--provider: its first model", []string{"--provider", "second"}, second, "", "Hello! I thought about it first"},
		{"--provider and --model", []string{"--provider", "second", "--model", "text"}, second, "", "Hello! This is a plain"},
		{"--base-url alone is its own endpoint", []string{"--base-url", plain.base, "--model", "text"}, plain, "", "Hello! This is a plain"},
		{"--base-url with --provider replaces its base_url", []string{"--provider", "second", "--base-url", plain.base, "--model", "text"}, plain, "", "Hello! This is a plain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(c.server.requests())
			r := runOneShotChild(t, data, "", append([]string{"-p", "hi", "--no-save"}, c.args...)...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, c.reply) {
				t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
			got := c.server.requests()
			if len(got) != before+1 || got[len(got)-1] != c.auth {
				t.Fatalf("the server got %v (had %d), want one request with auth %q", got, before, c.auth)
			}
			if strings.Contains(r.stdout+r.stderr, "sk-from-the-command") {
				t.Fatal("the key was printed")
			}
		})
	}
	if n := len(first.requests()) + len(second.requests()) + len(plain.requests()); n != len(cases) {
		t.Errorf("%d requests in all, want %d: a request went to a server not chosen", n, len(cases))
	}
}

// TestConfigErrorsStopTheChat: a bad config file is an error naming file, line and key; a
// --provider with no config that defines it says where it looked.
func TestConfigErrorsStopTheChat(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[provider.x]\nbase_url = \"http://127.0.0.1:1/v1\"\ncolour = \"red\"\n"), 0o600)
	failing := filepath.Join(dir, "failing.toml")
	os.WriteFile(failing, []byte("[provider.x]\nbase_url = \"http://127.0.0.1:1/v1\"\ndefault_model = \"m\"\napi_key_cmd = [\"sh\", \"-c\", \"echo sk-leaked; exit 1\"]\n"), 0o600)
	badTheme := filepath.Join(dir, "theme.toml")
	os.WriteFile(badTheme, []byte("system = \"be brief\"\ntheme = \"sepia\"\n"), 0o600)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--config", bad}, bad + ":3: provider.x.colour: unknown key"},
		{[]string{"--config", badTheme}, badTheme + `:2: theme: must be one of auto, dark, light, not "sepia"`},
		{[]string{"--config", filepath.Join(dir, "none.toml")}, "none.toml given with --config does not exist"},
		{[]string{"--provider", "x"}, "--provider x needs a config file that defines it"},
		{[]string{"--config", bad, "--provider", "nope"}, "provider.x.colour"},
		{[]string{"--config", failing}, "provider.x.api_key_cmd: the key command \"sh\" failed (exit status 1)"},
	}
	for _, c := range cases {
		r := runOneShotChild(t, t.TempDir(), "", append([]string{"-p", "hi", "--no-save"}, c.args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "sk-leaked") {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// TestConfigSaveFalseKeepsNoSession: save = false in the config file works as --no-save.
func TestConfigSaveFalseKeepsNoSession(t *testing.T) {
	srv := newProviderServer(t)
	for _, save := range []string{"true", "false"} {
		data := t.TempDir()
		cfg := filepath.Join(data, "c.toml")
		os.WriteFile(cfg, []byte("save = "+save+"\n[provider.p]\nbase_url = \""+srv.base+"\"\ndefault_model = \"text\"\n"), 0o600)
		r := runOneShotChild(t, data, "", "-p", "hi", "--config", cfg)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		logs, _ := filepath.Glob(filepath.Join(data, "phasechat", "sessions", "*.jsonl"))
		if (len(logs) > 0) != (save == "true") {
			t.Errorf("save = %s: %d sessions kept", save, len(logs))
		}
	}
}

// TestWireFlagReplacesTheProvidersType: --wire with a config provider sends that provider's
// requests in the format named, to that format's path.
func TestWireFlagReplacesTheProvidersType(t *testing.T) {
	h, err := fixtures.NewHandler(fixtures.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	data := t.TempDir()
	cfgDir := filepath.Join(data, "config", "phasechat")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "[provider.only]\nbase_url = \"" + srv.URL + "/v1\"\nmodels = [\"anthropic-text\"]\n"
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runOneShotChild(t, data, "", "-p", "hi", "--no-save", "--wire", "anthropic")
	if r.code != 0 || !strings.Contains(r.stdout, "Anthropic Messages reply") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "/v1/messages" {
		t.Fatalf("requests went to %v, want one to /v1/messages", paths)
	}
}

// TestContinueGoesOnWithTheSavedProvider: --continue with no model flag sends to the provider
// and model the conversation was saved with, not the file's default; a flag still wins.
func TestContinueGoesOnWithTheSavedProvider(t *testing.T) {
	first, second := newProviderServer(t), newProviderServer(t)
	data := t.TempDir()
	cfgDir := filepath.Join(data, "config", "phasechat")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "default = \"first/text\"\n[provider.first]\nbase_url = \"" + first.base + "\"\nmodels = [\"text\"]\n" +
		"[provider.second]\nbase_url = \"" + second.base + "\"\nmodels = [\"text\"]\n"
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{"-m", "second/text"}, {"--continue"}, {"--continue", "-m", "first/text"}} {
		r := runOneShotChild(t, data, "", append([]string{"-p", "hi"}, args...)...)
		if r.code != 0 {
			t.Fatalf("run %d %v: exit %d stderr %q", i, args, r.code, r.stderr)
		}
	}
	if f, s := len(first.requests()), len(second.requests()); f != 1 || s != 2 {
		t.Fatalf("requests: %d to the first provider, %d to the second; want 1 and 2", f, s)
	}
}
