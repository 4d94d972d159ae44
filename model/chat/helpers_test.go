package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// fakeSource is a Source the tests drive by hand; the engine never calls it.
type fakeSource struct{ closed bool }

func (s *fakeSource) Next() (wire.Update, bool) { return wire.Update{}, false }
func (s *fakeSource) Result() wire.Result       { return wire.Result{} }
func (s *fakeSource) Close()                    { s.closed = true }

// fakeTools offers every tool; names in sideEffects need approval; a call whose arguments
// are in invalid is rejected by Check with that text.
type fakeTools struct {
	sideEffects map[string]bool
	invalid     map[string]string
}

func (t fakeTools) Definitions() []wire.Tool {
	return []wire.Tool{{Name: "now"}, {Name: "lookup"}, {Name: "write_note"}}
}
func (t fakeTools) SideEffects(name string) bool     { return t.sideEffects[name] }
func (t fakeTools) Describe(c phase.ToolCall) string { return "args=" + c.ArgsText }
func (t fakeTools) Check(c phase.ToolCall) string    { return t.invalid[c.ArgsText] }

func text(d string) wire.Update {
	return wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: d}}}
}

func toolFrame(name string, calls ...phase.CallEvent) wire.Update {
	return wire.Update{Kind: wire.KindTool, Events: []phase.Event{{Kind: phase.KindTool, Tool: name}}, Calls: calls}
}

func start(id, name string) phase.CallEvent {
	return phase.CallEvent{Type: phase.CallStart, ID: id, Name: name}
}
func delta(id, s string) phase.CallEvent {
	return phase.CallEvent{Type: phase.CallDelta, ID: id, ArgsTextDelta: s}
}
func ready(id string) phase.CallEvent { return phase.CallEvent{Type: phase.CallReady, ID: id} }

func doneUpdate(calls ...phase.CallEvent) wire.Update {
	return wire.Update{Kind: wire.KindDone, Events: []phase.Event{{Kind: phase.KindDone}}, Calls: calls}
}

func errorUpdate(msg string) wire.Update {
	return wire.Update{Kind: wire.KindError, Events: []phase.Event{{Kind: phase.KindError, Error: msg}}}
}

// harness runs an engine, keeping the effects of every input and the open request's id.
type harness struct {
	t       *testing.T
	c       *Chat
	src     *fakeSource
	effects []Effect
}

func newHarness(t *testing.T, cfg Config) *harness {
	return &harness{t: t, c: New(cfg, nil), src: &fakeSource{}}
}

func (h *harness) do(effects []Effect) []Effect {
	h.effects = effects
	return effects
}

// req is the id of the request the engine last opened.
func (h *harness) req() int {
	h.t.Helper()
	if h.c.step == nil {
		h.t.Fatal("no request is open")
	}
	return h.c.step.id
}

func (h *harness) feed(u wire.Update) []Effect {
	return h.do(h.c.HandleStream(StreamMsg{Req: h.req(), Src: h.src, Update: u, More: true}))
}

func (h *harness) end(res wire.Result) []Effect {
	return h.do(h.c.HandleStream(StreamMsg{Req: h.req(), Src: h.src, More: false, Result: res}))
}

func complete(usage *wire.Usage) wire.Result {
	return wire.Result{Outcome: wire.OutcomeComplete, Usage: usage}
}

func (h *harness) toolDone(id, output string, isErr bool) []Effect {
	return h.do(h.c.HandleToolDone(ToolDoneMsg{Req: h.req(), CallID: id, Result: phase.ToolResult{Output: output, IsError: isErr}}))
}

func (h *harness) expectPhase(want phase.Phase, status string) {
	h.t.Helper()
	if h.c.State.Phase != want {
		h.t.Fatalf("phase = %s, want %s", h.c.State.Phase, want)
	}
	if status != "" && phase.Status(h.c.State) != status {
		h.t.Fatalf("status = %q, want %q", phase.Status(h.c.State), status)
	}
}

func effectsOf[T Effect](effects []Effect) []T {
	var out []T
	for _, e := range effects {
		if t, ok := e.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

func roles(h []wire.Message) []string {
	var out []string
	for _, m := range h {
		out = append(out, m.Role)
	}
	return out
}

// The words the model reads for calls that did not run to the end.
var (
	resultDeclined = phase.NotRunDeclined.Text()
	resultNoAsk    = phase.NotRunNoApprover.Text()
	resultNoTools  = phase.NotRunNoTools.Text()
	resultStopped  = phase.Interruption{Why: phase.CutByUser}.Text()
)

// resultInterrupted answers a call whose result a resumed history does not hold.
var resultInterrupted = phase.Interruption{Why: phase.CutSessionEnded}.Text()

// finalRecords is the records among effects that the log keeps for good: messages, usage and
// model switches, not the Live steps of a request in flight.
func finalRecords(effects []Effect) []Record {
	var out []Record
	for _, r := range effectsOf[Record](effects) {
		if r.Live == nil {
			out = append(out, r)
		}
	}
	return out
}
