package chat

import (
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

func TestTextOnlyTurn(t *testing.T) {
	h := newHarness(t, Config{Model: "m", System: "be brief"})
	effects := h.do(h.c.Submit("hello"))
	opens := effectsOf[OpenStream](effects)
	if len(opens) != 1 || opens[0].Request.Model != "m" || opens[0].Request.System != "be brief" || len(opens[0].Request.Messages) != 1 {
		t.Fatalf("submit effects: %+v", effects)
	}
	if recs := finalRecords(effects); len(recs) != 1 || recs[0].Message.Role != "user" {
		t.Fatalf("the user message is not recorded: %+v", effects)
	}
	h.expectPhase(phase.StreamingText, phase.StatusWriting)
	h.feed(text("Hi"))
	if pulls := effectsOf[PullNext](h.effects); len(pulls) != 1 {
		t.Fatalf("after an update the engine must pull the next: %+v", h.effects)
	}
	h.feed(text(" there"))
	h.feed(doneUpdate())
	h.expectPhase(phase.StreamingText, "") // done of the stream is not done of the turn yet
	h.end(complete(&wire.Usage{PromptTokens: 5, CompletionTokens: 2, TotalTokens: 7}))
	h.expectPhase(phase.Complete, phase.StatusComplete)
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user", "assistant"}) || h.c.History[1].Text() != "Hi there" {
		t.Fatalf("history %v %+v", got, h.c.History)
	}
	last := h.c.Entries()[len(h.c.Entries())-1]
	if last.Text() != "Hi there" || last.Streaming() || last.Mark() != transcript.MarkNone {
		t.Fatalf("entry %+v", last)
	}
	if h.c.Turn.TotalTokens != 7 || h.c.Session.TotalTokens != 7 {
		t.Fatalf("usage turn %+v session %+v", h.c.Turn, h.c.Session)
	}
	if len(effectsOf[Cancel](h.effects)) != 1 || len(effectsOf[CloseSource](h.effects)) == 0 {
		t.Fatalf("a finished request must be released: %+v", h.effects)
	}
}

// The seed scenario's sequence through a whole tool-using turn: the tool frame names the tool, the call
// runs the moment it is ready (before the stream ends), text follows, and the turn continues
// with the result until a reply without tool calls.
func TestSeedSequenceWithEarlyDispatch(t *testing.T) {
	h := newHarness(t, Config{Model: "seed", Tools: fakeTools{}})
	h.do(h.c.Submit("find the headings"))
	h.feed(toolFrame("lookup", start("call_0", "lookup")))
	h.expectPhase(phase.StreamingTool, "Working on lookup. Esc stops generating.")
	h.feed(toolFrame("", delta("call_0", `{"q":"home"}`)))
	if runs := effectsOf[RunTool](h.effects); len(runs) != 0 {
		t.Fatal("a call must not run at the first moment its JSON parses")
	}
	effects := h.feed(wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "Found two headings."}}, Calls: []phase.CallEvent{ready("call_0")}})
	runs := effectsOf[RunTool](effects)
	if len(runs) != 1 || !sameCall(runs[0].Call, "call_0", "lookup", `{"q":"home"}`) {
		t.Fatalf("the ready call must run at once, before the stream ends: %+v", effects)
	}
	h.expectPhase(phase.StreamingText, phase.StatusWriting)
	if strings.Contains(h.c.State.Text.String(), "{") {
		t.Fatal("tool arguments reached the reply text")
	}
	h.feed(doneUpdate())
	h.end(complete(nil))
	h.expectPhase(phase.StreamingTool, "Working on lookup. Esc stops generating.")
	first := h.req()
	effects = h.toolDone("call_0", "two headings: Home, About", false)
	opens := effectsOf[OpenStream](effects)
	if len(opens) != 1 {
		t.Fatalf("the turn must continue with the results: %+v", effects)
	}
	if got := roles(opens[0].Request.Messages); !reflect.DeepEqual(got, []string{"user", "assistant", "tool"}) {
		t.Fatalf("continuation sends %v", got)
	}
	if h.req() == first {
		t.Fatal("the continuation must be a new request id")
	}
	asst := h.c.History[1]
	if asst.Text() != "Found two headings." || len(asst.Calls()) != 1 || asst.Calls()[0].Arguments != `{"q":"home"}` {
		t.Fatalf("assistant message %+v", asst)
	}
	if res := h.c.History[2]; res.ToolCallID != "call_0" || res.Text() != "two headings: Home, About" {
		t.Fatalf("tool result %+v", res)
	}
	h.expectPhase(phase.StreamingText, phase.StatusWriting)
	h.feed(text("They are Home and About."))
	h.end(complete(nil))
	h.expectPhase(phase.Complete, phase.StatusComplete)
	if len(h.c.History) != 4 {
		t.Fatalf("history %v", roles(h.c.History))
	}
	card := h.c.Entries()[1].Cards()[0]
	if card.Status() != phase.CallDone || card.Result() != "two headings: Home, About" || card.Summary() != `args={"q":"home"}` {
		t.Fatalf("card %+v", card)
	}
}

func TestStopKeepsPartialReplyAndValidHistory(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{}})
	h.do(h.c.Submit("go"))
	h.feed(text("partial "))
	h.feed(toolFrame("now", start("a", "now"), delta("a", "{}")))
	h.feed(toolFrame("lookup", ready("a"), start("b", "lookup"), delta("b", `{"q":`)))
	req := h.req()
	effects := h.do(h.c.Stop())
	h.expectPhase(phase.Complete, phase.StatusStopped)
	if len(effectsOf[Cancel](effects)) != 1 || len(effectsOf[CloseSource](effects)) != 1 {
		t.Fatalf("Stop must cancel the request and close its stream: %+v", effects)
	}
	want := []string{"user", "assistant", "tool"}
	if got := roles(h.c.History); !reflect.DeepEqual(got, want) {
		t.Fatalf("history %v, want %v", got, want)
	}
	asst := h.c.History[1]
	if asst.Text() != "partial " || len(asst.Calls()) != 1 || asst.Calls()[0].ID != "a" {
		t.Fatalf("the running call stays, the pending one is dropped: %+v", asst)
	}
	if h.c.History[2].Text() != resultStopped {
		t.Fatalf("running call result %q", h.c.History[2].Text())
	}
	entry := h.c.Entries()[1]
	if entry.Mark() != transcript.MarkStopped || entry.Streaming() || entry.Text() != "partial " {
		t.Fatalf("entry %+v", entry)
	}
	// Late messages of the stopped request change nothing and only release their source.
	late := &fakeSource{}
	effects = h.c.HandleStream(StreamMsg{Req: req, Src: late, Update: text("late"), More: true})
	if len(effects) != 1 || effects[0] != (CloseSource{Src: late}) || h.c.State.Text.String() != "partial " {
		t.Fatalf("a stale update was not dropped: %+v", effects)
	}
	if eff := h.c.HandleToolDone(ToolDoneMsg{Req: req, CallID: "a", Result: phase.ToolResult{Output: "noon"}}); eff != nil {
		t.Fatalf("a stale tool result was not dropped: %+v", eff)
	}
	// And the next request is valid.
	opens := effectsOf[OpenStream](h.do(h.c.Submit("again")))
	if got := roles(opens[0].Request.Messages); !reflect.DeepEqual(got, []string{"user", "assistant", "tool", "user"}) {
		t.Fatalf("next request %v", got)
	}
}

func TestStopBeforeAnythingArrivedAddsNoMessage(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("go"))
	h.do(h.c.Stop())
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user"}) {
		t.Fatalf("history %v", got)
	}
	if h.c.Stop() != nil {
		t.Fatal("a second Stop must do nothing")
	}
}

func TestErrorKeepsPartialTextAndRetryResends(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("go"))
	h.feed(text("half an ans"))
	effects := h.feed(errorUpdate("The server closed the stream before finishing (no [DONE])"))
	h.expectPhase(phase.Error, "The server closed the stream before finishing (no DONE). Retry is available: Enter retries, Tab goes to the composer.")
	if len(effectsOf[Cancel](effects)) != 1 {
		t.Fatalf("a failed request must be released: %+v", effects)
	}
	entry := h.c.Entries()[1]
	if entry.Mark() != transcript.MarkFailed || entry.Text() != "half an ans" || !strings.Contains(entry.Note(), "no [DONE]") {
		t.Fatalf("entry %+v", entry)
	}
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user"}) {
		t.Fatalf("a failed reply must not enter the history: %v", got)
	}
	opens := effectsOf[OpenStream](h.do(h.c.Retry()))
	if len(opens) != 1 || len(opens[0].Request.Messages) != 1 {
		t.Fatalf("retry: %+v", h.effects)
	}
	h.expectPhase(phase.StreamingText, "")
	h.feed(text("whole answer"))
	h.end(complete(nil))
	h.expectPhase(phase.Complete, "")
	if h.c.History[1].Text() != "whole answer" {
		t.Fatalf("history %+v", h.c.History)
	}
}

func TestTruncatedEndIsAnError(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("go"))
	h.feed(text("cut"))
	h.end(wire.Result{Outcome: wire.OutcomeTruncated, Err: &wire.Error{Message: "The server closed the stream before finishing (no [DONE])"}})
	h.expectPhase(phase.Error, "")
	if h.c.Retry() == nil {
		t.Fatal("Retry must be available after truncation")
	}
}

func TestRetryOnlyInTheErrorPhase(t *testing.T) {
	h := newHarness(t, Config{})
	if h.c.Retry() != nil {
		t.Fatal("Retry in idle did something")
	}
	h.do(h.c.Submit("go"))
	if h.c.Retry() != nil || h.c.Submit("again") != nil {
		t.Fatal("Retry or Submit while streaming did something")
	}
}

func TestRegenerateDropsTheLastReply(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("q"))
	h.feed(text("first"))
	h.end(complete(nil))
	opens := effectsOf[OpenStream](h.do(h.c.Regenerate()))
	if len(opens) != 1 || len(opens[0].Request.Messages) != 1 || len(h.c.Entries()) != 2 {
		t.Fatalf("regenerate: %+v entries %d", h.effects, len(h.c.Entries()))
	}
	if h.c.Entries()[1].Text() != "" {
		t.Fatal("the regenerated reply must start empty")
	}
}

func TestNoToolsMeansAnErrorResultTheModelSees(t *testing.T) {
	h := newHarness(t, Config{})
	h.do(h.c.Submit("go"))
	h.feed(toolFrame("now", start("a", "now")))
	effects := h.feed(doneUpdate(ready("a")))
	if len(effectsOf[RunTool](effects)) != 0 {
		t.Fatal("ran a tool with no toolbox")
	}
	h.end(complete(nil))
	if got := roles(h.c.History); !reflect.DeepEqual(got, []string{"user", "assistant", "tool"}) || h.c.History[2].Text() != resultNoTools {
		t.Fatalf("history %v %+v", got, h.c.History)
	}
}

func TestInvalidArgumentsAreAnErrorResult(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{}})
	h.do(h.c.Submit("go"))
	h.feed(toolFrame("lookup", start("a", "lookup"), delta("a", `{"q":`)))
	effects := h.feed(doneUpdate(ready("a")))
	if len(effectsOf[RunTool](effects)) != 0 {
		t.Fatal("ran a call with invalid arguments")
	}
	h.end(complete(nil))
	res := h.c.History[2].Text()
	if !strings.Contains(res, "not valid JSON") {
		t.Fatalf("result %q", res)
	}
}

// TestRestartStartsAfreshOrFromHistory: Restart keeps the configuration and replaces the
// conversation; it does nothing while a reply streams.
func TestRestartStartsAfreshOrFromHistory(t *testing.T) {
	c := New(Config{Model: "m", System: "old"}, []wire.Message{{Role: "user", Parts: wire.TextParts("a")}, {Role: "assistant", Parts: wire.TextParts("b")}})
	c.Restart(nil)
	if len(c.History) != 0 || len(c.Entries()) != 0 {
		t.Fatalf("after Restart(nil): %d messages, %d entries", len(c.History), len(c.Entries()))
	}
	c.Restart([]wire.Message{{Role: "user", Parts: wire.TextParts("x")}, {Role: "system", Parts: wire.TextParts("dropped")}})
	if len(c.History) != 1 || len(c.Entries()) != 1 {
		t.Fatalf("after Restart(history): %+v", c.History)
	}
	c.SetSystem("new")
	effects := c.Submit("go")
	open := effects[len(effects)-1].(OpenStream)
	msgs := open.Request.Messages // x had no reply: a note stands between it and go
	if open.Request.System != "new" || open.Request.Model != "m" || len(msgs) != 3 || msgs[0].Text() != "x" || msgs[2].Text() != "go" {
		t.Fatalf("request %+v", open.Request)
	}
	c.Restart(nil)
	if len(c.History) != 2 {
		t.Fatal("Restart changed the conversation while a reply streams")
	}
}

// sameCall reports whether got is the call with these id, name and arguments, its arguments
// parsed once (as the registry reads them).
func sameCall(got phase.ToolCall, id, name, arguments string) bool {
	return got.ID == id && got.Name == name && got.ArgsText == arguments && got.Args.JSON == strings.TrimSpace(arguments)
}

// A user message that got no reply (stopped while the model only reasoned, or failed) is
// followed, in the request only, by a note in the assistant's place: no two user messages go
// in a row, which servers with alternating-role templates refuse. The new prompt stays last,
// and the history keeps what happened.
func TestNoTwoUserMessagesGoInARow(t *testing.T) {
	c := New(Config{Model: "m"}, []wire.Message{
		{Role: "user", Parts: wire.TextParts("first")},
		{Role: "user", Parts: wire.TextParts("second")},
		{Role: "assistant", Parts: wire.TextParts("answer")},
	})
	effects := c.Submit("third")
	msgs := effects[len(effects)-1].(OpenStream).Request.Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role+":"+m.Text())
	}
	want := []string{"user:first", "assistant:" + NoReplyNote, "user:second", "assistant:answer", "user:third"}
	if strings.Join(roles, "|") != strings.Join(want, "|") {
		t.Fatalf("sent %q, want %q", roles, want)
	}
	if len(c.History) != 4 || c.History[1].Text() != "second" {
		t.Fatalf("the history changed: %+v", c.History)
	}
}
