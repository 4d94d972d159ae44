package linemode

import (
	"reflect"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// These tests drive the real engine by hand (no I/O) and check what the announcer makes of
// the way it changes its state and entries.

type handSource struct{}

func (handSource) Next() (wire.Update, bool) { return wire.Update{}, false }
func (handSource) Result() wire.Result       { return wire.Result{} }
func (handSource) Close()                    {}

// handTools offers now and mark; mark has side effects.
type handTools struct{}

func (handTools) Definitions() []wire.Tool     { return []wire.Tool{{Name: "now"}, {Name: "mark"}} }
func (handTools) SideEffects(name string) bool { return name == "mark" }
func (handTools) Check(phase.ToolCall) string  { return "" }
func (handTools) Describe(c phase.ToolCall) string {
	if c.Name == "now" {
		return ""
	}
	return `text="hi" tags=[2 items]`
}

type handEngine struct {
	t    *testing.T
	c    *chat.Chat
	a    *Announcer
	req  int
	runs []chat.RunTool
}

func newHandEngine(t *testing.T, cfg chat.Config) *handEngine {
	cfg.Tools = handTools{}
	c := chat.New(cfg, nil)
	return &handEngine{t: t, c: c, a: NewAnnouncer(c.State, c.Follow())}
}

// do takes the effects of one engine call and returns the lines it is announced with.
func (h *handEngine) do(effects []chat.Effect) []string {
	for _, e := range effects {
		switch e := e.(type) {
		case chat.OpenStream:
			h.req = e.Req
		case chat.RunTool:
			h.runs = append(h.runs, e)
		}
	}
	return h.a.Announce(h.c.State)
}

func (h *handEngine) feed(u wire.Update) []string {
	return h.do(h.c.HandleStream(chat.StreamMsg{Req: h.req, Src: handSource{}, Update: u, More: true}))
}

func (h *handEngine) end() []string {
	return h.do(h.c.HandleStream(chat.StreamMsg{Req: h.req, Src: handSource{}, Result: wire.Result{Outcome: wire.OutcomeComplete}}))
}

func (h *handEngine) expect(got []string, want ...string) {
	h.t.Helper()
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		h.t.Fatalf("lines\n%q\nwant\n%q", got, want)
	}
}

func textUpdate(d string) wire.Update {
	return wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: d}}}
}

func callUpdate(id, name, args string) wire.Update {
	return wire.Update{Kind: wire.KindTool, Events: []phase.Event{{Kind: phase.KindTool, Tool: name}}, Calls: []phase.CallEvent{
		{Type: phase.CallStart, ID: id, Name: name}, {Type: phase.CallDelta, ID: id, ArgsTextDelta: args}}}
}

func readyUpdate(ids ...string) wire.Update {
	u := wire.Update{Kind: wire.KindDone, Events: []phase.Event{{Kind: phase.KindDone}}}
	for _, id := range ids {
		u.Calls = append(u.Calls, phase.CallEvent{Type: phase.CallReady, ID: id})
	}
	return u
}

func TestAnnounceEngineApprovalTurn(t *testing.T) {
	h := newHandEngine(t, chat.Config{CanAsk: true})
	h.expect(h.do(h.c.Submit("note hi")), writing)
	h.expect(h.feed(textUpdate("I will note it.")))
	h.expect(h.feed(callUpdate("m1", "mark", `{"text":"hi"}`)),
		"Assistant: I will note it.", "Status: Working on mark. Esc stops generating.")
	question := "Status: Allow mark with text='hi' tags=2 items? y runs it, n declines, A allows mark for this session. Esc stops."
	h.expect(h.feed(readyUpdate("m1")), "Tool: mark is waiting for your approval", question)
	h.expect(h.end())
	h.expect(h.do(h.c.Approve(chat.Allow)), "Tool: mark started: text='hi' tags=2 items")
	if len(h.runs) != 1 {
		t.Fatalf("runs %+v", h.runs)
	}
	h.expect(h.do(h.c.HandleToolDone(chat.ToolDoneMsg{Req: h.req, CallID: "m1", Result: phase.ToolResult{Output: "noted\n", Duration: 4 * time.Millisecond}})),
		"Tool: mark done in 4 ms: noted", writing)
	h.expect(h.feed(textUpdate("Noted.\nAnything else?")), "Assistant: Noted.")
	h.expect(h.feed(readyUpdate()))
	h.expect(h.end(), "Anything else?", "Status: Answer ready.")
}

func TestAnnounceEngineDenialAndStop(t *testing.T) {
	h := newHandEngine(t, chat.Config{CanAsk: true})
	h.expect(h.do(h.c.Submit("note hi")), writing)
	h.expect(h.feed(callUpdate("m1", "mark", `{"text":"hi"}`)), "Status: Working on mark. Esc stops generating.")
	h.expect(h.feed(readyUpdate("m1")), "Tool: mark is waiting for your approval",
		"Status: Allow mark with text='hi' tags=2 items? y runs it, n declines, A allows mark for this session. Esc stops.")
	h.expect(h.end())
	h.expect(h.do(h.c.Approve(chat.Deny)), "Tool: mark not run: The user declined to run this tool.", writing)
	h.expect(h.feed(textUpdate("drip1 drip2 ")))
	h.expect(h.do(h.c.Stop()), "Assistant: drip1 drip2", "Status: Stopped. The partial reply is kept.")
}

func TestAnnounceEngineNoTerminalDenies(t *testing.T) {
	h := newHandEngine(t, chat.Config{CanAsk: false})
	h.do(h.c.Submit("note hi"))
	h.feed(callUpdate("m1", "mark", `{"text":"hi"}`))
	h.expect(h.feed(readyUpdate("m1")),
		"Tool: mark not run: this tool has side effects and there is no terminal to ask for approval (start phasechat with --yes to allow it).")
}

func TestAnnounceEngineStepLimitNotice(t *testing.T) {
	h := newHandEngine(t, chat.Config{MaxSteps: 1})
	h.do(h.c.Submit("time?"))
	h.expect(h.feed(callUpdate("n1", "now", "{}")), "Status: Working on now. Esc stops generating.")
	h.expect(h.feed(readyUpdate("n1")), "Tool: now started")
	h.expect(h.end())
	h.expect(h.do(h.c.HandleToolDone(chat.ToolDoneMsg{Req: h.req, CallID: "n1", Result: phase.ToolResult{Output: "12:00"}})),
		"Tool: now done in 0 ms: 12:00",
		"Note: Stopped after 1 step (--max-steps 1). The tool results are kept; send a message to continue.",
		"Status: Answer ready.")
}

func TestAnnounceEngineError(t *testing.T) {
	h := newHandEngine(t, chat.Config{})
	h.do(h.c.Submit("hi"))
	h.expect(h.feed(textUpdate("Here is the start ")))
	h.expect(h.feed(wire.Update{Kind: wire.KindError, Events: []phase.Event{{Kind: phase.KindError, Error: `The server said {"error":"boom"}`}}}),
		"Assistant: Here is the start",
		"Status: The server said ('error':'boom'). Retry is available: Enter retries, Tab goes to the composer.")
	h.expect(h.do(h.c.Retry()), writing)
}

func TestAnnounceEngineStopWhileAsking(t *testing.T) {
	h := newHandEngine(t, chat.Config{CanAsk: true})
	h.do(h.c.Submit("note hi"))
	h.feed(callUpdate("m1", "mark", `{"text":"hi"}`))
	h.expect(h.feed(readyUpdate("m1")), "Tool: mark is waiting for your approval",
		"Status: Allow mark with text='hi' tags=2 items? y runs it, n declines, A allows mark for this session. Esc stops.")
	h.expect(h.do(h.c.Stop()), "Tool: mark not run: stopped by the user", "Status: Stopped. The partial reply is kept.")
}

// Declining the last question before the stream ends takes the phase back to the reply still
// streaming (one Status line, a phase change), and the question is not asked again.
func TestAnnounceEngineDenialBeforeTheStreamEnds(t *testing.T) {
	h := newHandEngine(t, chat.Config{CanAsk: true})
	h.do(h.c.Submit("note hi"))
	h.feed(callUpdate("m1", "mark", `{"text":"hi"}`))
	h.expect(h.feed(readyUpdate("m1")), "Tool: mark is waiting for your approval",
		"Status: Allow mark with text='hi' tags=2 items? y runs it, n declines, A allows mark for this session. Esc stops.")
	h.expect(h.do(h.c.Approve(chat.Deny)), "Tool: mark not run: The user declined to run this tool.", writing)
	h.expect(h.end())
}
