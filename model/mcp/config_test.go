package mcp

import (
	"strings"

	"github.com/phasechat/phasechat/internal/secret"
	"testing"
	"time"
)

func TestParseReadsServersWithDefaults(t *testing.T) {
	cfg, err := Parse([]byte(`
[mcp.files]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
env = { DEBUG = "1", TOKEN = "${GITHUB_TOKEN}" }
tools = ["read_file"]

[mcp.remote]
url = "https://example.invalid/mcp"
headers = { "X-Team" = "core" }
bearer_token_env = "REMOTE_TOKEN"
startup_timeout = "3s"
call_timeout = "2m"
approve = "always"
enabled = false
`), "mcp.toml")
	if err != nil {
		t.Fatal(err)
	}
	f, r := cfg["files"], cfg["remote"]
	if f.Command != "npx" || len(f.Args) != 3 || f.Env["TOKEN"] != "${GITHUB_TOKEN}" || !f.IsEnabled() {
		t.Errorf("files: %+v", f)
	}
	if f.Startup() != 10*time.Second || f.CallLimit() != 60*time.Second || f.Approval() != ApproveAuto {
		t.Errorf("defaults: %s %s %s", f.Startup(), f.CallLimit(), f.Approval())
	}
	if r.IsEnabled() || r.Startup() != 3*time.Second || r.CallLimit() != 2*time.Minute || r.Approval() != ApproveAlways || r.Headers["X-Team"] != "core" {
		t.Errorf("remote: %+v", r)
	}
}

func TestParseReportsEveryProblemWithFileLineAndKey(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"unknown server key", "[mcp.a]\ncommand = \"x\"\ncomand = \"y\"\n", `mcp.toml:3: mcp.a.comand: unknown key`},
		{"unknown top-level key", "model = \"x\"\n", `mcp.toml:1: model: unknown key; this file holds only [mcp.NAME] tables`},
		{"neither command nor url", "[mcp.a]\nargs = []\n", `mcp.toml:1: mcp.a: give either command`},
		{"both", "[mcp.a]\ncommand = \"x\"\nurl = \"http://127.0.0.1/mcp\"\n", `mcp.toml:3: mcp.a.url: give command or url, not both`},
		{"bad url", "[mcp.a]\nurl = \"ftp://h/x\"\n", `mcp.toml:2: mcp.a.url: must be an http(s) URL`},
		{"credentials in url", "[mcp.a]\nurl = \"https://u:pw@h/x\"\n", `mcp.a.url: must not carry credentials`},
		{"provider key in env", "[mcp.a]\ncommand = \"x\"\nenv = { OPENAI_API_KEY = \"k\" }\n", `mcp.toml:3: mcp.a.env.OPENAI_API_KEY: provider API keys are never given`},
		{"provider key referenced", "[mcp.a]\ncommand = \"x\"\n[mcp.a.env]\nK = \"${ANTHROPIC_API_KEY}\"\n", `mcp.toml:4: mcp.a.env.K: ${ANTHROPIC_API_KEY}: provider API keys`},
		{"provider key as bearer", "[mcp.a]\nurl = \"http://h/\"\nbearer_token_env = \"OPENAI_API_KEY\"\n", `mcp.toml:3: mcp.a.bearer_token_env: provider API keys`},
		{"bad approve", "[mcp.a]\ncommand = \"x\"\napprove = \"sometimes\"\n", `mcp.toml:3: mcp.a.approve: must be "auto"`},
		{"bad timeout", "[mcp.a]\ncommand = \"x\"\nstartup_timeout = \"soon\"\n", `mcp.toml:3: mcp.a.startup_timeout: "soon" is not a positive duration`},
		{"wrong type", "[mcp.a]\ncommand = [\"x\"]\n", `mcp.toml:2: mcp.a.command: a TOML array where a string belongs`},
		{"bad name", "[mcp.\"my server\"]\ncommand = \"x\"\n", `mcp.toml:1: mcp."my server": the server's name must be`},
		{"headers on a command", "[mcp.a]\ncommand = \"x\"\nheaders = { A = \"b\" }\n", `mcp.a: headers and bearer_token_env belong to a url server`},
		{"duplicate tools", "[mcp.a]\ncommand = \"x\"\ntools = [\"t\", \"t\"]\n", `mcp.toml:3: mcp.a.tools: must list distinct`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.text), "mcp.toml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestEmptyFileHasNoServers(t *testing.T) {
	cfg, err := Parse([]byte("# nothing yet\n"), "mcp.toml")
	if err != nil || cfg == nil || len(cfg) != 0 {
		t.Errorf("%v %v", cfg, err)
	}
}

func TestChildEnvHoldsOnlyPathHomeAndWhatEnvNames(t *testing.T) {
	e := environ{lookup: env("GITHUB_TOKEN", "gh-1", "LANG", "C", "MY_PROVIDER_KEY", "pk-1", "COPY", "sk-never-shown"),
		hidden: func(n string) bool { return n == "MY_PROVIDER_KEY" }, secrets: secret.New("sk-never-shown")}
	got, err := childEnv(Server{Env: map[string]string{"TOKEN": "${GITHUB_TOKEN}"}}, e)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(got, "\n")
	if !strings.Contains(joined, "TOKEN=gh-1") || !strings.HasPrefix(joined, "PATH=") || strings.Contains(joined, "LANG") || strings.Contains(joined, "sk-never-shown") || strings.Contains(joined, "OPENAI") {
		t.Errorf("env: %q", got)
	}
	if _, err := childEnv(Server{Env: map[string]string{"T": "${UNSET_VAR}"}}, e); err == nil || !strings.Contains(err.Error(), "UNSET_VAR is not set") {
		t.Errorf("unset variable: %v", err)
	}
	for _, bad := range []map[string]string{{"OPENAI_API_KEY": "x"}, {"K": "${OPENAI_API_KEY}"}, {"K": "${MY_PROVIDER_KEY}"}, {"K": "${COPY}"}, {"MY_PROVIDER_KEY": "x"}} {
		if _, err := childEnv(Server{Env: bad}, e); err == nil || strings.Contains(err.Error(), "sk-never") || strings.Contains(err.Error(), "pk-1") {
			t.Errorf("env %v: %v; want it refused without the value", bad, err)
		}
	}
}

func TestToolNamesFollowOpenAIsRules(t *testing.T) {
	long := strings.Repeat("x", 80)
	tests := []struct{ server, tool, want string }{
		{"github", "create_issue", "github__create_issue"},
		{"fs", "read.file/v2", "fs__read_file_v2"},
		{"s", "ünï code", "s____n___code"},
	}
	for _, tt := range tests {
		if got := ToolName(tt.server, tt.tool); got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
	a, b := ToolName("srv", long+"a"), ToolName("srv", long+"b")
	if len(a) != 64 || a == b || a != ToolName("srv", long+"a") || !strings.HasPrefix(a, "srv__xxx") {
		t.Errorf("clipped names %q %q: want 64 characters, distinct, stable", a, b)
	}
	if distinctName("s", "a.b") == distinctName("s", "a_b") {
		t.Errorf("tools that sanitise alike must still differ")
	}
}

func FuzzToolName(f *testing.F) {
	f.Add("github", "create_issue")
	f.Add("a", strings.Repeat("é", 70))
	f.Fuzz(func(t *testing.T, server, tool string) {
		for _, name := range []string{ToolName(server, tool), distinctName(server, tool)} {
			if !validToolName(name) {
				t.Fatalf("%q is not a valid tool name", name)
			}
		}
	})
}

func validToolName(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[mcp.a]\ncommand = \"x\"\n"))
	f.Add([]byte("[mcp.a]\nurl = \"http://h/\"\nheaders = { A = \"${B}\" }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "f.toml")
		if err == nil && cfg == nil {
			t.Fatal("no error and no config")
		}
	})
}

func TestValidServerName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"git_hub-2", true}, {strings.Repeat("s", 32), true},
		{"", false}, {strings.Repeat("s", 33), false}, {"a.b", false}, {"my server", false}, {"ñ", false},
	} {
		if got := validServerName(tc.name); got != tc.ok {
			t.Errorf("validServerName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
