package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const fullFile = `default = "local/small"
system = "be brief"
stall_timeout = "45s"
max_steps = 4
save = false
theme = "light"

[mcp.files]
command = "mcp-server-filesystem"
args = ["."]

[provider.local]
base_url = "http://127.0.0.1:8080/v1"
api_key = "sk-literal"
headers = { "X-Title" = "phasechat", "X-Org" = "${ORG}" }
models = ["small", "large"]
default_model = "large"
stream_options = false
max_tokens = 100
temperature = 0.5
reasoning_effort = "low"

[provider.local.extra_body]
top_k = 5
options = { num_ctx = 8192 }

[provider.cmd]
base_url = "https://example.com/v1"
api_key_cmd = ["pass", "show", "x"]
stream_options = "auto"

[provider.env]
type = "openai-responses"
base_url = "https://example.org/v1"
api_key_env = "EXAMPLE_KEY"
stream_options = true
`

func TestParseEveryKey(t *testing.T) {
	f, err := Parse([]byte(fullFile), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	if f.Default != "local/small" || f.System != "be brief" || f.StallTimeout.Duration != 45*time.Second ||
		f.MaxSteps != 4 || f.Save == nil || *f.Save || f.Theme != "light" {
		t.Errorf("top level = %+v", f)
	}
	if !reflect.DeepEqual(f.Order, []string{"local", "cmd", "env"}) {
		t.Errorf("order = %v", f.Order)
	}
	p := f.Providers["local"]
	if p.Name != "local" || p.BaseURL != "http://127.0.0.1:8080/v1" || p.APIKey != "sk-literal" ||
		p.Headers["X-Org"] != "${ORG}" || !reflect.DeepEqual(p.Models, []string{"small", "large"}) ||
		p.DefaultModel != "large" || p.StreamOptions != StreamOptionsOff || *p.MaxTokens != 100 ||
		*p.Temperature != 0.5 || p.ReasoningEffort != "low" || p.ExtraBody["top_k"] != int64(5) {
		t.Errorf("local = %+v", p)
	}
	if c := f.Providers["cmd"]; !reflect.DeepEqual(c.APIKeyCmd, []string{"pass", "show", "x"}) || c.StreamOptions != StreamOptionsAuto {
		t.Errorf("cmd = %+v", c)
	}
	if e := f.Providers["env"]; e.APIKeyEnv != "EXAMPLE_KEY" || e.StreamOptions != StreamOptionsOn || e.Type != "openai-responses" {
		t.Errorf("env = %+v", e)
	}
	if srv, ok := f.MCP["files"]; !ok || srv.Command != "mcp-server-filesystem" {
		t.Errorf("mcp = %+v", f.MCP)
	}
	if got := f.DefaultProvider(); got != p || f.DefaultModel() != "small" {
		t.Errorf("default = %v / %q", got, f.DefaultModel())
	}
}

func TestParseErrors(t *testing.T) {
	base := "[provider.p]\nbase_url = \"http://h/v1\"\n"
	cases := []struct{ text, want string }{
		{"default = \n", "c.toml:1: default: not valid TOML"},
		{"default = 3\n", "c.toml:1: default: must be a string, not an integer"},
		{"colour = \"red\"\n", "c.toml:1: colour: unknown key"},
		{"sytem = \"x\"\n", "c.toml:1: sytem: unknown key; did you mean system?"},
		{"max_steps = 0\n", "c.toml:1: max_steps: must be at least 1"},
		{"max_reply = 0\n", "c.toml:1: max_reply: must be at least 1"},
		{"system = \"x\"\ntheme = \"solarized\"\n", `c.toml:2: theme: must be one of auto, dark, light, not "solarized"`},
		{"theme = true\n", "c.toml:1: theme: must be a string, not true or false"},
		{"measure = 10\n", "c.toml:1: measure: must be at least 20"},
		{"compact_at = 1\n", "c.toml:1: compact_at: must be between 0 and 1"},
		{"compact_at = 0\n", "c.toml:1: compact_at: must be between 0 and 1"},
		{"compact_at = 90\n", "c.toml:1: compact_at: must be between 0 and 1"},
		{"stall_timeout = \"soon\"\n", `c.toml:1: stall_timeout: must be a duration such as "30s"`},
		{"stall_timeout = 30\n", `c.toml:1: stall_timeout: must be a duration in quotes`},
		{"default = \"nope\"\n" + base, `c.toml:1: default: names the provider "nope", which the file does not define (it defines p)`},
		{"[provider.p]\nmodels = []\n", "c.toml:1: provider.p.base_url: is required"},
		{"[provider.p]\nbase_url = \"ftp://h\"\n", "c.toml:2: provider.p.base_url: \"ftp://h\" is not an http(s) URL"},
		{"[provider.p]\nbase_url = \"https://u:pw@h/v1\"\n", "provider.p.base_url: must not hold a user name or password"},
		{base + "bogus = 1\n", "c.toml:3: provider.p.bogus: unknown key"},
		{base + "modles = [\"a\"]\n", "c.toml:3: provider.p.modles: unknown key; did you mean models?"},
		{base + "api_key = \"k\"\napi_key_env = \"K\"\n", "c.toml:3: provider.p.api_key: set only one of api_key, api_key_env and api_key_cmd"},
		{base + "api_key_env = \"not a name\"\n", "c.toml:3: provider.p.api_key_env: must be the name of an environment variable"},
		{base + "api_key_cmd = []\n", "c.toml:3: provider.p.api_key_cmd: must name a program"},
		{base + "headers = { \"Bad Name\" = \"v\" }\n", `provider.p.headers: "Bad Name" is not a valid header name`},
		{base + "headers = { \"X\" = \"${1BAD}\" }\n", "provider.p.headers: X: ${1BAD} is not an environment variable name"},
		{base + "headers = { \"X\" = \"${OPEN\" }\n", "opens ${ without a closing }"},
		{base + "models = [\"a\", \"a\"]\n", `c.toml:3: provider.p.models: lists "a" twice`},
		{base + "models = [\" \"]\n", "provider.p.models: holds an empty model name"},
		{base + "models = \"a\"\n", "c.toml:3: provider.p.models: must be an array, not a string"},
		{base + "default_model = \"\"\n", "provider.p.default_model: is empty"},
		{base + "stream_options = \"yes\"\n", `c.toml:3: provider.p.stream_options: must be true, false or "auto", not "yes"`},
		{base + "max_tokens = 0\n", "c.toml:3: provider.p.max_tokens: must be at least 1"},
		{base + "max_tokens = \"many\"\n", "c.toml:3: provider.p.max_tokens: must be an integer, not a string"},
		{base + "temperature = 3.5\n", "c.toml:3: provider.p.temperature: must be between 0 and 2"},
		{base + "reasoning_effort = \"max\"\n", "c.toml:3: provider.p.reasoning_effort: must be one of none, minimal, low, medium, high, xhigh"},
		{base + "extra_body = { model = \"x\" }\n", `c.toml:3: provider.p.extra_body: cannot set "model"`},
		{base + "extra_body = 3\n", "provider.p.extra_body: must be a table, such as { name = \"value\" }, not integer"},
		{"[provider.\"a/b\"]\nbase_url = \"http://h/v1\"\n", "may hold only letters, digits"},
		{"provider = 1\n", "c.toml:1: provider: must be a table of providers"},
		{base + "type = \"gemini\"\n", `c.toml:3: provider.p.type: must be one of openai, anthropic, openai-responses, not "gemini"`},
		{"[mcp.fs]\ncommand = \"x\"\nbogus = 1\n", "c.toml:3: mcp.fs.bogus"},
		{"[mcp.fs]\nargs = [\"x\"]\n", "mcp.fs"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.text), "c.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got  %v\n want %s", c.text, err, c.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.File != "c.toml" {
			t.Errorf("%q: error %T is not a *config.Error naming the file", c.text, err)
		}
	}
}

func TestEveryProblemIsReported(t *testing.T) {
	text := "a = 1\n[provider.p]\nbase_url = \"http://h/v1\"\nb = 2\nmax_tokens = -1\n"
	_, err := Parse([]byte(text), "c.toml")
	if err == nil {
		t.Fatal("no error")
	}
	got := err.Error()
	want := "c.toml:1: a: unknown key; the keys here are default, system, stall_timeout, max_steps, max_reply, measure, compact_at, save, save_oneshot, inline, theme, provider, mcp, model\n" +
		"c.toml:4: provider.p.b: unknown key; the keys here are type, base_url, api_key, api_key_env, api_key_cmd, headers, models, default_model, stream_options, max_tokens, temperature, reasoning_effort, extra_body\n" +
		"c.toml:5: provider.p.max_tokens: must be at least 1, not -1"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none.toml"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want fs.ErrNotExist", err)
	}
}

func TestReadableLiteralKeyWarns(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	literal := "[provider.p]\nbase_url = \"http://h/v1\"\napi_key = \"sk-1234567890\"\n"
	header := "[provider.p]\nbase_url = \"http://h/v1\"\nheaders = { Authorization = \"Bearer sk-1234567890\" }\n"
	fromEnv := "[provider.p]\nbase_url = \"http://h/v1\"\napi_key_env = \"K\"\nheaders = { Authorization = \"Bearer ${K}\" }\n"
	cases := []struct {
		name, text string
		mode       os.FileMode
		warn       string
	}{
		{"open.toml", literal, 0o644, "provider.p.api_key"},
		{"group.toml", header, 0o640, "provider.p.headers.Authorization"},
		{"private.toml", literal, 0o600, ""},
		{"env.toml", fromEnv, 0o644, ""},
	}
	for _, c := range cases {
		f, err := Load(write(c.name, c.text, c.mode))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(f.Warnings, "\n")
		if (c.warn == "") != (got == "") || !strings.Contains(got, c.warn) {
			t.Errorf("%s: warnings %q, want one naming %q", c.name, got, c.warn)
		}
		if strings.Contains(got, "sk-1234567890") {
			t.Errorf("%s: the warning shows the key: %s", c.name, got)
		}
		if c.warn != "" && !strings.Contains(got, "chmod 600") {
			t.Errorf("%s: the warning does not say what to do: %s", c.name, got)
		}
	}
}

func TestExampleFileParses(t *testing.T) {
	f, err := Load("testdata/example-config.toml")
	if err != nil {
		t.Fatal(err)
	}
	// The example shows every key: each top-level key and each provider key is set somewhere.
	data, _ := os.ReadFile("testdata/example-config.toml")
	text := string(data)
	for _, k := range append(append([]string{}, topKeys...), providerKeys...) {
		if k == "api_key" || k == "provider" {
			continue // a literal key is not something to show off
		}
		if !strings.Contains(text, "\n"+k+" = ") && !strings.Contains(text, "."+k+"]") && !strings.Contains(text, "["+k+".") {
			t.Errorf("the example does not show %s", k)
		}
	}
	if len(f.Order) < 2 || f.DefaultProvider() == nil {
		t.Errorf("the example should define several providers and a default: %v", f.Order)
	}
}

func TestDefaultPath(t *testing.T) {
	env := func(kv map[string]string) Getenv { return func(k string) string { return kv[k] } }
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/phasechat/config.toml"},
		{map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/h"}, "/h/.config/phasechat/config.toml"},
		{map[string]string{"HOME": "/h"}, "/h/.config/phasechat/config.toml"},
	}
	for _, c := range cases {
		if got, err := DefaultPath(env(c.env)); err != nil || got != filepath.FromSlash(c.want) {
			t.Errorf("%v: %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	if _, err := DefaultPath(env(nil)); err == nil {
		t.Error("no HOME and no XDG_CONFIG_HOME: want an error")
	}
}

func TestToolsPathFallsBackToTheOldPlace(t *testing.T) {
	home, old := t.TempDir(), t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	oldDir := func() (string, error) { return old, nil }
	newPath := filepath.Join(home, ".config", "phasechat", "tools.toml")
	if p, notice, _ := ToolsPath(getenv, oldDir); p != newPath || notice != "" {
		t.Errorf("neither exists: %q %q", p, notice)
	}
	oldPath := filepath.Join(old, "phasechat", "tools.toml")
	os.MkdirAll(filepath.Dir(oldPath), 0o700)
	os.WriteFile(oldPath, nil, 0o600)
	if p, notice, _ := ToolsPath(getenv, oldDir); p != oldPath || !strings.Contains(notice, newPath) || strings.Count(notice, "\n") > 0 {
		t.Errorf("only the old one: %q %q", p, notice)
	}
	os.MkdirAll(filepath.Dir(newPath), 0o700)
	os.WriteFile(newPath, nil, 0o600)
	if p, notice, _ := ToolsPath(getenv, oldDir); p != newPath || notice != "" {
		t.Errorf("both: %q %q", p, notice)
	}
}

func TestValidProviderName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"open.router_2-x", true}, {strings.Repeat("p", 64), true},
		{"", false}, {strings.Repeat("p", 65), false}, {"a/b", false}, {"a b", false}, {"ünï", false},
	} {
		if got := validProviderName(tc.name); got != tc.ok {
			t.Errorf("validProviderName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
