//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/phase"
)

// A call that brings its parsed arguments is run with them: the registry does not parse the
// text again, so what the engine's machine parsed is what the tool gets.
func TestRunReadsTheParsedArguments(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "echo", `cat > seen.txt; echo ok`, "2m", false)
	parsed, err := phase.ParseArgs(`"bare"`)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Run(context.Background(), Call{ID: "c", Name: "echo", Arguments: "not parsed again", Args: &parsed})
	wantOutcome(t, res, OutcomeOK)
	seen, err := os.ReadFile(filepath.Join(r.Root(), "seen.txt"))
	if err != nil || string(seen) != `{"value":"bare"}` {
		t.Fatalf("the tool got %q, %v", seen, err)
	}
}

// Hiding a secret in the arguments changes a copy: the parsed arguments are shared with the
// call's card and machine.
func TestRedactArgsLeavesTheSharedArgumentsAlone(t *testing.T) {
	const key = "sk-live-args-0123456789"
	parsed, err := phase.ParseArgs(`{"a": ["Bearer ` + key + `"], "` + key + `": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := phase.ParseArgs(parsed.JSON)
	got := redactArgs(secret.New(key), parsed)
	if !reflect.DeepEqual(parsed, before) {
		t.Fatalf("the shared arguments changed: %#v", parsed)
	}
	if got.JSON != `{"[redacted]":1,"a":["Bearer [redacted]"]}` {
		t.Fatalf("redacted %q", got.JSON)
	}
}
