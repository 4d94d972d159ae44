//go:build unix

package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase/secret"
)

// A command tool sees neither a provider key nor a configured secret: not in its environment,
// not in its arguments (even written with JSON escapes), not in OPENAI_BASE_URL's credentials.
func TestCommandsNeverGetASecret(t *testing.T) {
	const key = "sk-live-tool-0123456789"
	t.Setenv("OPENAI_API_KEY", key)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-other-0123456789")
	t.Setenv("MY_PROVIDER_KEY", "custom-provider-key-42")
	t.Setenv("COPIED_KEY", "prefix "+key)
	t.Setenv("OPENAI_BASE_URL", "https://bob:pa55w0rd-xyz@example.com/v1?api-key=qk-123456789&api-version=2024")
	t.Setenv("PHASECHAT_TEST_VISIBLE", "yes")
	r := newTestRegistry(t, "")
	r.Secrets = secret.New(key, "custom-provider-key-42")
	r.Secrets.AddURL(os.Getenv("OPENAI_BASE_URL"))
	r.HiddenEnv = []string{"MY_PROVIDER_KEY"}
	addScriptTool(t, r, "dump", `env > seen.txt; echo --- >> seen.txt; cat >> seen.txt; echo ok`, "5s", false)
	escaped := strings.ReplaceAll(key, "s", `\u0073`)
	res := run(t, r, "dump", `{"a": "Bearer `+key+`", "b": "`+escaped+`"}`)
	wantOutcome(t, res, OutcomeOK)
	seen, err := os.ReadFile(filepath.Join(r.Root(), "seen.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{key, "sk-ant-other", "custom-provider-key-42", "pa55w0rd", "qk-123456789", "OPENAI_API_KEY=", "COPIED_KEY="} {
		if strings.Contains(string(seen), leak) {
			t.Errorf("the tool saw %q:\n%s", leak, seen)
		}
	}
	for _, want := range []string{"PHASECHAT_TEST_VISIBLE=yes", "OPENAI_BASE_URL=https://example.com/v1?api-version=2024", `"a":"Bearer [redacted]"`, `"b":"[redacted]"`} {
		if !strings.Contains(string(seen), want) {
			t.Errorf("the tool did not see %q:\n%s", want, seen)
		}
	}
}

// A tool that finds the key anyway (it can read /proc/<ppid>/environ) cannot show it.
func TestToolOutputHidesSecrets(t *testing.T) {
	const key = "sk-live-tool-0123456789"
	r := newTestRegistry(t, "")
	r.Secrets = secret.New(key)
	addScriptTool(t, r, "leak", `echo "found `+key+`"; exit 3`, "5s", false)
	res := run(t, r, "leak", "")
	if strings.Contains(res.Output, key) || !strings.Contains(res.Output, "found [redacted]") {
		t.Fatalf("output %q", res.Output)
	}
}
