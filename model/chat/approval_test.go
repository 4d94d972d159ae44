package chat

import (
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

func askingHarness(t *testing.T, cfg Config) *harness {
	cfg.Tools = fakeTools{sideEffects: map[string]bool{"write_note": true}}
	h := newHarness(t, cfg)
	h.do(h.c.Submit("note it"))
	h.feed(toolFrame("write_note", start("w1", "write_note"), delta("w1", `{"text":"hi"}`)))
	h.feed(doneUpdate(ready("w1")))
	return h
}

func TestSideEffectsWaitForApproval(t *testing.T) {
	h := askingHarness(t, Config{CanAsk: true})
	if len(effectsOf[RunTool](h.effects)) != 0 || !h.c.Asking() {
		t.Fatal("a side-effecting tool ran without asking")
	}
	want := `Allow write_note with args=('text':'hi')? y runs it, n declines, A allows write_note for this session. Esc stops.`
	h.expectPhase(phase.StreamingTool, want)
	h.end(complete(nil))
	h.expectPhase(phase.StreamingTool, want) // still asking once the stream is over
	effects := h.do(h.c.Approve(Allow))
	if runs := effectsOf[RunTool](effects); len(runs) != 1 || runs[0].Call.ID != "w1" {
		t.Fatalf("y must run the call: %+v", effects)
	}
	h.expectPhase(phase.StreamingTool, "Working on write_note. Esc stops generating.")
	h.toolDone("w1", "saved", false)
	if h.c.History[2].Text() != "saved" {
		t.Fatalf("history %+v", h.c.History)
	}
}

func TestDenialIsAResultTheModelSees(t *testing.T) {
	h := askingHarness(t, Config{CanAsk: true})
	h.end(complete(nil))
	effects := h.do(h.c.Approve(Deny))
	if len(effectsOf[RunTool](effects)) != 0 {
		t.Fatal("n ran the tool")
	}
	if len(effectsOf[OpenStream](effects)) != 1 {
		t.Fatalf("the turn must continue so the model reads the denial: %+v", effects)
	}
	if got := h.c.History[2]; got.Role != "tool" || got.Text() != resultDeclined {
		t.Fatalf("denial result %+v", got)
	}
}

func TestNoTerminalDenies(t *testing.T) {
	h := askingHarness(t, Config{CanAsk: false})
	if h.c.Asking() || len(effectsOf[RunTool](h.effects)) != 0 {
		t.Fatal("with no terminal, a side-effecting call must be denied, not asked")
	}
	h.end(complete(nil))
	if h.c.History[2].Text() != resultNoAsk {
		t.Fatalf("result %q", h.c.History[2].Text())
	}
}

func TestYesApprovesExplicitly(t *testing.T) {
	h := askingHarness(t, Config{AutoApprove: true})
	if runs := effectsOf[RunTool](h.effects); len(runs) != 1 {
		t.Fatalf("--yes must run side-effecting tools: %+v", h.effects)
	}
}

func TestAlwaysAllowCoversTheSession(t *testing.T) {
	h := newHarness(t, Config{CanAsk: true, Tools: fakeTools{sideEffects: map[string]bool{"write_note": true}}})
	h.do(h.c.Submit("two notes"))
	h.feed(toolFrame("write_note", start("w1", "write_note"), delta("w1", `{}`), ready("w1"), start("w2", "write_note"), delta("w2", `{}`)))
	h.feed(doneUpdate(ready("w2")))
	effects := h.do(h.c.Approve(AllowAlways))
	var ids []string
	for _, r := range effectsOf[RunTool](effects) {
		ids = append(ids, r.Call.ID)
	}
	if !reflect.DeepEqual(ids, []string{"w1", "w2"}) || h.c.Asking() {
		t.Fatalf("a must run this call and the waiting one of the same tool: %v", ids)
	}
	h.end(complete(nil))
	h.toolDone("w1", "ok", false)
	h.toolDone("w2", "ok", false)
	h.feed(toolFrame("write_note", start("w3", "write_note"), delta("w3", "{}")))
	if runs := effectsOf[RunTool](h.feed(doneUpdate(ready("w3")))); len(runs) != 1 {
		t.Fatal("a later call of an always-allowed tool asked again")
	}
}

func TestStepLimitStopsTheLoop(t *testing.T) {
	h := newHarness(t, Config{MaxSteps: 1, Tools: fakeTools{}})
	h.do(h.c.Submit("go"))
	h.feed(toolFrame("now", start("a", "now"), delta("a", "{}")))
	h.feed(doneUpdate(ready("a")))
	h.end(complete(nil))
	effects := h.toolDone("a", "noon", false)
	if len(effectsOf[OpenStream](effects)) != 0 {
		t.Fatal("the loop went past --max-steps 1")
	}
	h.expectPhase(phase.Complete, phase.StatusComplete)
	note := h.c.Entries()[len(h.c.Entries())-1]
	if note.Text() == "" || note.Role() != 2 {
		t.Fatalf("the step limit must be said: %+v", note)
	}
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user", "assistant", "tool"}) {
		t.Fatalf("history %v", got)
	}
	opens := effectsOf[OpenStream](h.do(h.c.Submit("continue")))
	if len(opens) != 1 {
		t.Fatal("the user must be able to continue")
	}
}

func TestResultsJoinTheHistoryInCallOrder(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{}})
	h.do(h.c.Submit("three"))
	h.feed(toolFrame("now", start("a", "now"), delta("a", "{}"), start("b", "now"), delta("b", "{}"), start("c", "now"), delta("c", "{}")))
	effects := h.feed(doneUpdate(ready("a"), ready("b"), ready("c")))
	if len(effectsOf[RunTool](effects)) != 3 {
		t.Fatalf("three ready calls must run at once: %+v", effects)
	}
	h.end(complete(nil))
	h.toolDone("c", "C", false)
	h.toolDone("a", "A", false)
	h.expectPhase(phase.StreamingTool, "Working on now. Esc stops generating.")
	h.toolDone("b", "B", false)
	var got []string
	for _, m := range h.c.History[2:5] {
		got = append(got, m.ToolCallID+"="+m.Text())
	}
	if !reflect.DeepEqual(got, []string{"a=A", "b=B", "c=C"}) {
		t.Fatalf("results %v", got)
	}
}

func TestRepairHistory(t *testing.T) {
	call := wire.ToolCall{ID: "x", Name: "now", Arguments: "{}"}
	cases := []struct {
		name string
		in   []wire.Message
		want []string
	}{
		{"valid stays", []wire.Message{{Role: "user"}, {Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{call})}, {Role: "tool", ToolCallID: "x"}, {Role: "assistant"}}, []string{"user", "assistant", "tool", "assistant"}},
		{"cut before the result", []wire.Message{{Role: "user"}, {Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{call})}}, []string{"user", "assistant", "tool"}},
		{"orphan result dropped", []wire.Message{{Role: "user"}, {Role: "tool", ToolCallID: "y"}}, []string{"user"}},
		{"system dropped", []wire.Message{{Role: "system"}, {Role: "user"}}, []string{"user"}},
	}
	for _, c := range cases {
		got := repairHistory(c.in)
		if !reflect.DeepEqual(roles(got), c.want) {
			t.Errorf("%s: %v, want %v", c.name, roles(got), c.want)
		}
	}
	cut := repairHistory([]wire.Message{{Role: "user"}, {Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{call})}})
	if cut[2].Text() != resultInterrupted || cut[2].ToolCallID != "x" {
		t.Fatalf("synthesised result %+v", cut[2])
	}
}

func TestResumeRebuildsTheTranscript(t *testing.T) {
	c := New(Config{}, []wire.Message{
		{Role: "user", Parts: wire.TextParts("time?")},
		{Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{{ID: "x", Name: "now", Arguments: "{}"}})},
		{Role: "tool", ToolCallID: "x", Parts: wire.TextParts("noon")},
		{Role: "assistant", Parts: wire.TextParts("It is noon.")},
	})
	if len(c.Entries()) != 3 || c.Entries()[1].Cards()[0].Result() != "noon" || c.Entries()[2].Text() != "It is noon." {
		t.Fatalf("entries %+v", c.Entries())
	}
	if c.State.Phase != phase.Idle {
		t.Fatal("a resumed chat starts idle")
	}
}

// A resumed transcript must not show a call that never finished as done: a call without a
// result (a cut log) and one the history says was declined come back as failed cards, as
// they were live.
func TestResumeShowsUnfinishedCallsAsFailed(t *testing.T) {
	calls := []wire.ToolCall{{ID: "x", Name: "now"}, {ID: "y", Name: "hang"}, {ID: "z", Name: "write_note"}}
	c := New(Config{}, []wire.Message{
		{Role: "user", Parts: wire.TextParts("go")},
		{Role: "assistant", Parts: wire.ReplyParts("", "", calls)},
		{Role: "tool", ToolCallID: "x", Parts: wire.TextParts("noon")},
		{Role: "tool", ToolCallID: "z", Parts: wire.TextParts(resultDeclined), Ending: phase.Ending{Status: phase.CallDeclined, NotRun: phase.NotRunDeclined}},
	})
	cards := c.Entries()[1].Cards()
	want := []struct {
		status phase.CallStatus
		isErr  bool
		result string
	}{{phase.CallDone, false, "noon"}, {phase.CallInterrupted, true, resultInterrupted}, {phase.CallDeclined, true, resultDeclined}}
	for i, w := range want {
		if cards[i].Status() != w.status || cards[i].IsError() != w.isErr || cards[i].Result() != w.result {
			t.Errorf("card %s: %+v, want status %s error %v result %q", cards[i].ID(), cards[i], w.status, w.isErr, w.result)
		}
	}
}

func TestStopWhileAskingDropsTheCallThatNeverRan(t *testing.T) {
	h := askingHarness(t, Config{CanAsk: true})
	h.feed(toolFrame("now", start("n1", "now"), delta("n1", "{}"), ready("n1")))
	h.do(h.c.Stop())
	asst := h.c.History[1]
	if len(asst.Calls()) != 1 || asst.Calls()[0].ID != "n1" {
		t.Fatalf("the running call stays, the one waiting for approval is dropped: %+v", asst.Calls())
	}
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user", "assistant", "tool"}) {
		t.Fatalf("history %v", got)
	}
}

func TestResumedCardsKeepTheirSummary(t *testing.T) {
	c := New(Config{Tools: fakeTools{}}, []wire.Message{
		{Role: "user", Parts: wire.TextParts("q")},
		{Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{{ID: "x", Name: "lookup", Arguments: `{"q":1}`}})},
		{Role: "tool", ToolCallID: "x", Parts: wire.TextParts("r")},
	})
	if got := c.Entries()[1].Cards()[0].Summary(); got != `args={"q":1}` {
		t.Fatalf("summary %q", got)
	}
}

func TestDenyingBeforeTheStreamEndsClearsTheQuestion(t *testing.T) {
	h := newHarness(t, Config{CanAsk: true, Tools: fakeTools{sideEffects: map[string]bool{"write_note": true}}})
	h.do(h.c.Submit("note it"))
	h.feed(toolFrame("write_note", start("w1", "write_note"), delta("w1", `{}`), ready("w1")))
	if h.c.State.Ask == "" {
		t.Fatal("no question asked")
	}
	h.do(h.c.Approve(Deny))
	if h.c.State.Ask != "" {
		t.Fatalf("the status still asks after the answer: %q", phase.Status(h.c.State))
	}
	h.expectPhase(phase.StreamingText, phase.StatusWriting)
}

// keyedTools is fakeTools whose tools declare things that can change: "allow for the
// session" holds for a tool only while its approval key stays the same.
type keyedTools struct {
	fakeTools
	keys map[string]string
}

func (t keyedTools) ApprovalKey(name string) string { return name + "/" + t.keys[name] }

func TestAlwaysAllowLapsesWhenAToolChangesWhatItDeclares(t *testing.T) {
	tb := keyedTools{fakeTools{sideEffects: map[string]bool{"write_note": true}}, map[string]string{"write_note": "v1"}}
	h := newHarness(t, Config{CanAsk: true, Tools: tb})
	h.do(h.c.Submit("note"))
	h.feed(toolFrame("write_note", start("w1", "write_note"), delta("w1", `{}`)))
	h.feed(doneUpdate(ready("w1")))
	h.do(h.c.Approve(AllowAlways))
	h.end(complete(nil))
	h.toolDone("w1", "ok", false)
	h.feed(toolFrame("write_note", start("w2", "write_note"), delta("w2", "{}")))
	if runs := effectsOf[RunTool](h.feed(doneUpdate(ready("w2")))); len(runs) != 1 {
		t.Fatal("an allowed tool whose key did not change asked again")
	}
	h.end(complete(nil))
	h.toolDone("w2", "ok", false)
	tb.keys["write_note"] = "v2"
	h.feed(toolFrame("write_note", start("w3", "write_note"), delta("w3", "{}")))
	if runs := effectsOf[RunTool](h.feed(doneUpdate(ready("w3")))); len(runs) != 0 || !h.c.Asking() {
		t.Fatal("a tool whose approval key changed must be asked about again")
	}
}

// pendingTools is fakeTools with sources still starting.
type pendingTools struct {
	fakeTools
	pending *[]string
}

func (t pendingTools) Pending() []string { return *t.pending }

func TestARequestWithoutStartingToolsSaysSoOnce(t *testing.T) {
	pending := []string{"MCP server slow"}
	h := newHarness(t, Config{CanAsk: true, Tools: pendingTools{fakeTools{}, &pending}})
	h.do(h.c.Submit("one"))
	h.end(complete(nil))
	h.do(h.c.Submit("two"))
	h.end(complete(nil))
	var said []string
	for _, e := range h.c.Entries() {
		if strings.HasPrefix(e.Text(), "Still starting") {
			said = append(said, e.Text())
		}
	}
	if len(said) != 1 || said[0] != "Still starting: MCP server slow. This request goes out with the tools that are ready." {
		t.Fatalf("notices %q", said)
	}
}
