package perform

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
)

type syncRecorder struct {
	listRecorder
	synced int
}

func (r *syncRecorder) Sync() error { r.synced++; return nil }

// A tool to run gets the log's Sync; a tool with side effects starts only once it returned,
// so its start is on disk first; one without waits for nothing.
func TestASideEffectingToolStartsOnceItsStartIsOnDisk(t *testing.T) {
	reg, err := tools.NewRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var log syncRecorder
	var syncedAtRun []int
	mk := func(name string, side bool) tools.Tool {
		tool, err := tools.NewExternal(tools.External{Name: name, SideEffects: side,
			Call: func(context.Context, json.RawMessage) (string, bool, error) {
				syncedAtRun = append(syncedAtRun, log.synced)
				return "ok", false, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	if err := reg.SetGroup("g", []tools.Tool{mk("write", true), mk("look", false)}); err != nil {
		t.Fatal(err)
	}
	reg.Clean = func(s string) string { return s }
	p := &Performer{Tools: reg}
	for _, name := range []string{"write", "look"} {
		effects := LogRecords([]chat.Effect{chat.RunTool{Req: 1, Ctx: context.Background(), Call: phase.ToolCall{ID: name, Name: name, ArgsText: "{}"}}}, &log)
		run, ok := effects[0].(chat.RunTool)
		if !ok || run.Durable == nil {
			t.Fatalf("the tool to run was not given the log's Sync: %+v", effects)
		}
		p.Do(run)
	}
	if len(syncedAtRun) != 2 || syncedAtRun[0] != 1 || syncedAtRun[1] != 1 {
		t.Fatalf("syncs seen as each tool ran: %v, want [1 1]", syncedAtRun)
	}
}
