//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
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
	addScriptTool(t, r, "dump", `env > seen.txt; echo --- >> seen.txt; cat >> seen.txt; echo ok`, "2m", false)
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
	addScriptTool(t, r, "leak", `echo "found `+key+`"; exit 3`, "2m", false)
	res := run(t, r, "leak", "")
	if strings.Contains(res.Output, key) || !strings.Contains(res.Output, "found [redacted]") {
		t.Fatalf("output %q", res.Output)
	}
}

// However many calls come at once, at most MaxParallel of them run at the same time.
func TestAtMostMaxParallelToolsRunAtOnce(t *testing.T) {
	r := newTestRegistry(t, "")
	r.MaxParallel = 3
	// each run holds a directory in locks/ while it runs and records how many it saw
	addScriptTool(t, r, "slow", `mkdir -p locks; d=$(mktemp -d locks/XXXXXX); ls locks | wc -l >> peaks.txt; sleep 0.05; rmdir $d`, "10s", false)
	const calls = 20
	var wg sync.WaitGroup
	for i := 0; i < calls; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wantOutcome(t, run(t, r, "slow", ""), OutcomeOK)
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(r.Root(), "peaks.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(data))
	if len(lines) != calls {
		t.Fatalf("%d runs recorded, want %d", len(lines), calls)
	}
	for _, l := range lines {
		if l != "1" && l != "2" && l != "3" {
			t.Fatalf("%s tools ran at once, want at most 3", l)
		}
	}
}

func TestAWaitingToolIsStoppedWithoutStarting(t *testing.T) {
	r := newTestRegistry(t, "")
	r.MaxParallel = 1
	release, _ := r.acquire(context.Background())
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := r.Run(ctx, Call{ID: "c", Name: "now"})
	wantOutcome(t, res, OutcomeStopped)
}
