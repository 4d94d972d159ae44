package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// seedSessions keeps conversations in a fresh data folder and returns their ids.
func seedSessions(t *testing.T, prompts ...string) []string {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	store, err := app.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range prompts {
		ss := store.Begin(sessions.Start{Header: sessionlog.Header{Model: "text"}})
		ss.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts(p)}})
		ss.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("answer to " + p)}})
		if err := ss.Close(); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ss.ID())
	}
	return ids
}

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSessionsCommands(t *testing.T) {
	ids := seedSessions(t, "first question", "second question about penguins")

	code, out, _ := runCLI("sessions", "list")
	if code != 0 || !strings.Contains(out, ids[0]) || !strings.Contains(out, "second question about penguins") || strings.Index(out, ids[1]) > strings.Index(out, ids[0]) {
		t.Fatalf("list: %d %q (the latest comes first)", code, out)
	}
	code, out, _ = runCLI("sessions", "list", "--json")
	var metas []sessions.Meta
	if code != 0 || json.Unmarshal([]byte(out), &metas) != nil || len(metas) != 2 || metas[0].Turns != 1 {
		t.Fatalf("list --json: %d %q", code, out)
	}
	if code, out, _ = runCLI("sessions", "show", ids[0]); code != 0 || !strings.Contains(out, "## You\n\nfirst question") {
		t.Fatalf("show: %d %q", code, out)
	}
	if code, out, _ = runCLI("sessions", "search", "PENGUINS"); code != 0 || !strings.Contains(out, ids[1]) || strings.Contains(out, ids[0]) {
		t.Fatalf("search: %d %q", code, out)
	}
	if code, _, errs := runCLI("sessions", "search", "walrus"); code != 1 || !strings.Contains(errs, "no session mentions") {
		t.Fatalf("search without hits: %d %q", code, errs)
	}
	if code, out, _ = runCLI("sessions", "rename", ids[0], "Better", "title"); code != 0 || !strings.Contains(out, `"Better title"`) {
		t.Fatalf("rename: %d %q", code, out)
	}
	code, out, _ = runCLI("sessions", "export", ids[0], "--format", "json")
	var exp sessions.Export
	if code != 0 || json.Unmarshal([]byte(out), &exp) != nil || exp.Title != "Better title" || len(exp.Messages) != 2 {
		t.Fatalf("export json: %d %q", code, out)
	}
	if code, out, _ = runCLI("sessions", "export", "--format", "markdown", ids[0]); code != 0 || !strings.HasPrefix(out, "# Better title\n") {
		t.Fatalf("export markdown: %d %q", code, out)
	}
	if code, _, _ = runCLI("sessions", "rm", ids[0]); code != 0 {
		t.Fatalf("rm: %d", code)
	}
	if code, _, errs := runCLI("sessions", "show", ids[0]); code != 1 || !strings.Contains(errs, "no session") {
		t.Fatalf("show after rm: %d %q", code, errs)
	}
}

func TestSessionsUsageErrors(t *testing.T) {
	seedSessions(t)
	for _, args := range [][]string{{"sessions"}, {"sessions", "frob"}, {"sessions", "show"}, {"sessions", "rename", "x"}, {"sessions", "export", "x", "--format", "pdf"}, {"sessions", "list", "--bogus"}} {
		if code, _, _ := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := runCLI("sessions", "list"); code != 0 || !strings.Contains(out, "No saved sessions yet") {
		t.Errorf("empty list: %d %q", code, out)
	}
}

func TestContinueWithNothingSavedSaysSo(t *testing.T) {
	seedSessions(t)
	code, _, errs := runCLI("--continue", "--base-url", "http://127.0.0.1:9/v1")
	if code != 1 || !strings.Contains(errs, "no saved session yet") {
		t.Fatalf("--continue with an empty store: %d %q", code, errs)
	}
}

// TestSessionsListSaysWhenOnlyOneShotRunsAreKept: a folder holding only one-shot runs is not
// called empty; the listing says how many there are and how to show them.
func TestSessionsListSaysWhenOnlyOneShotRunsAreKept(t *testing.T) {
	seedSessions(t)
	store, err := app.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		ss := store.Begin(sessions.Start{Header: sessionlog.Header{Model: "text"}, OneShot: true})
		ss.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("a question")}})
		if err := ss.Close(); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ := runCLI("sessions", "list")
	if code != 0 || strings.Contains(out, "yet") || !strings.Contains(out, "only 2 one-shot runs (phasechat sessions list --all shows them)") {
		t.Fatalf("list with only one-shot runs: %d %q", code, out)
	}
	if code, out, _ := runCLI("sessions", "list", "--all"); code != 0 || strings.Count(out, "a question") != 2 {
		t.Fatalf("list --all: %d %q", code, out)
	}
}
