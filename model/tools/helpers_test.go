package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
)

func TestMain(m *testing.M) {
	testwait.VerifyTestMain(m) // no run may leave a goroutine behind
}

// cleanStub stands in for view/safe.Text: it makes ESC visible, enough to prove Clean is applied.
func cleanStub(s string) string { return strings.ReplaceAll(s, "\x1b", "␛") }

// fixedNow is the clock of test registries.
var fixedNow = time.Date(2026, 11, 29, 12, 10, 35, 0, time.UTC)

// newTestRegistry returns a registry confined to root, or to a fresh temporary directory when
// root is "", with the stand-in sanitiser and a fixed clock.
func newTestRegistry(t testing.TB, root string) *Registry {
	t.Helper()
	if root == "" {
		root = t.TempDir()
	}
	r, err := NewRegistry(root)
	if err != nil {
		t.Fatal(err)
	}
	r.Clean = cleanStub
	r.Now = func() time.Time { return fixedNow }
	return r
}

// addTools parses a tools file text and adds its tools to r.
func addTools(t testing.TB, r *Registry, text string) {
	t.Helper()
	tools, err := Parse([]byte(text), "test-tools.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(tools...); err != nil {
		t.Fatal(err)
	}
}

// addScriptTool writes script to <root>/<name>.sh and registers a tool running it as
// ["/bin/sh", "<name>.sh"], taking any arguments.
func addScriptTool(t testing.TB, r *Registry, name, script, timeout string, sideEffects bool) {
	t.Helper()
	writeFile(t, filepath.Join(r.Root(), name+".sh"), script)
	se := "false"
	if sideEffects {
		se = "true"
	}
	addTools(t, r, `[[tool]]
name = "`+name+`"
description = "a test script"
argv = ["/bin/sh", "`+name+`.sh"]
side_effects = `+se+`
timeout = "`+timeout+`"
parameters = '{"type": "object"}'
`)
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t testing.TB, r *Registry, name, args string) Result {
	t.Helper()
	return r.Run(context.Background(), Call{ID: "call_1", Name: name, Arguments: args})
}

func wantOutcome(t testing.TB, res Result, want Outcome) {
	t.Helper()
	if res.Outcome != want || res.IsError != (want != OutcomeOK) {
		t.Fatalf("outcome %q (IsError %v), want %q; output:\n%s", res.Outcome, res.IsError, want, res.Output)
	}
}
