package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// A reply that ended early is marked as such by `sessions show` and `export`, and a model
// switched to mid-session is recorded: the list and the export name it.
func TestSessionsShowIncompleteRepliesAndModelSwitches(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	store, err := app.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	ss := store.Begin(sessions.Start{Header: sessionlog.Header{Model: "first-model"}})
	ss.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("tell me a long story")}})
	ss.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("Once upon a"), End: phase.End{Why: phase.EndStopped}}})
	ss.Add(chat.Record{Model: "other/second-model"})
	ss.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("again")}})
	ss.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("The end.")}})
	if err := ss.Close(); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("sessions", "show", ss.ID())
	if code != 0 || !strings.Contains(out, "Once upon a\n\n*[The reply is incomplete: stopped by the user.]*") {
		t.Fatalf("show: %d %q %q", code, out, errs)
	}
	if strings.Count(out, "incomplete") != 1 || !strings.Contains(out, "- Model: first-model, then other/second-model\n") {
		t.Fatalf("show marks the wrong replies or misses the switch:\n%s", out)
	}
	code, out, _ = runCLI("sessions", "export", ss.ID(), "--format", "json")
	var exp sessions.Export
	if code != 0 || json.Unmarshal([]byte(out), &exp) != nil {
		t.Fatalf("export: %d %q", code, out)
	}
	if len(exp.Incomplete) != 1 || exp.Incomplete[0] != (sessions.Incomplete{Message: 1, Why: "stopped by the user"}) {
		t.Fatalf("export incomplete %+v", exp.Incomplete)
	}
	if strings.Join(exp.Models, ",") != "first-model,other/second-model" || exp.Model != "other/second-model" {
		t.Fatalf("export models %q, model %q", exp.Models, exp.Model)
	}
	code, out, _ = runCLI("sessions", "list", "--json")
	var metas []sessions.Meta
	if code != 0 || json.Unmarshal([]byte(out), &metas) != nil || len(metas) != 1 || metas[0].Model != "other/second-model" {
		t.Fatalf("list: %d %q", code, out)
	}
}
