package chat

import (
	"context"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// step is one request of a turn and the tools its calls started. It ends when its stream
// ends and every call is final (then it is committed to the history), or on Stop or an error.
//
// Each call's state lives in calls, the state machine; the entry's card of a call shows the
// machine's snapshot, handed over by apply after every event, so the two cannot disagree.
type step struct {
	id     int
	ctx    context.Context // the request's and its tools' context
	cancel context.CancelFunc
	tr     *transcript.Transcript
	entry  *transcript.Entry
	calls  *phase.ToolCalls
	src    Source          // nil until the first update arrives
	ended  bool            // the stream ended complete; only tools may be outstanding
	asking []string        // call ids waiting for approval, oldest first
	unran  map[string]bool // calls an interruption caught waiting for approval or a slot: they never ran
	// reply is the stream's reassembled message once it ended complete: where its reasoning
	// came in and each call's provider-specific fields, which go back in the tool loop.
	reply  wire.Message
	cutOff string          // why the server cut the reply off (wire.CutOff); "" when it did not
	unsent map[string]bool // calls the stream ended unfinished: kept out of the history
	// running counts the calls started (a RunTool sent) whose result is not in; queued are
	// the ready, approved calls waiting for running to drop below the bound, oldest first.
	running int
	queued  []string
	started map[string]time.Time // when each started call was handed over to run
}

func newStep(id int, ctx context.Context, cancel context.CancelFunc, tr *transcript.Transcript, entry *transcript.Entry) *step {
	return &step{id: id, ctx: ctx, cancel: cancel, tr: tr, entry: entry, calls: phase.NewToolCalls(), unsent: map[string]bool{}, started: map[string]time.Time{}}
}

// apply folds one event into the call's state machine and shows the call's new state on its
// card (a start the machine accepted adds the card). It returns the call and whether the
// machine knows it.
func (st *step) apply(ev phase.CallEvent) (phase.ToolCall, bool) {
	st.calls.Apply(ev)
	call, ok := st.calls.Get(ev.ID)
	if !ok {
		return call, false
	}
	st.show(call, ev.Type == phase.CallStart)
	return call, true
}

// show gives the card of call the machine's snapshot; add says a missing card may be added.
func (st *step) show(call phase.ToolCall, add bool) {
	if _, shown := st.entry.Card(call.ID); shown || add {
		st.tr.SetCall(st.entry, call)
	}
}

// failCall ends a call that is not final with why as its error, through the machine.
func (st *step) failCall(id, why string) {
	st.apply(phase.CallEvent{Type: phase.CallFail, ID: id, Error: why})
	st.tr.SetResult(st.entry, id, why, 0)
	st.tr.SetAsking(st.entry, id, false)
}

// callName is the tool name of call id.
func (st *step) callName(id string) string {
	call, _ := st.calls.Get(id)
	return call.Name
}

// release ends the step's context and closes its source.
func (st *step) release() []Effect {
	effects := []Effect{Cancel{Cancel: st.cancel}}
	if st.src != nil {
		effects = append(effects, CloseSource{Src: st.src})
	}
	st.tr.EndStreaming(st.entry)
	return effects
}

// sync copies the reply so far into the transcript entry.
func (st *step) sync(s phase.State) {
	st.tr.SetReply(st.entry, s.Text.String(), s.Reasoning.String())
}

// outstanding returns the first call that is not final yet, or false when all are.
func (st *step) outstanding() (phase.ToolCall, bool) {
	for _, call := range st.calls.List() {
		if call.Status == phase.CallPending || call.Status == phase.CallRunning {
			return call, true
		}
	}
	return phase.ToolCall{}, false
}

// interrupt ends every unfinished call with why, through the calls' state machine, and shows
// each card as its call now stands; the tools are being cancelled.
func (st *step) interrupt(why phase.Interruption) {
	if st.unran == nil {
		st.unran = map[string]bool{}
	}
	for _, id := range st.asking {
		st.unran[id] = true
	}
	before := map[string]phase.CallStatus{}
	for _, call := range st.calls.List() {
		before[call.ID] = call.Status
	}
	st.calls.Interrupt(why)
	for _, call := range st.calls.List() {
		if before[call.ID] != call.Status {
			st.show(call, false)
			st.tr.SetResult(st.entry, call.ID, errorText(call.Error), 0)
			st.tr.SetAsking(st.entry, call.ID, false)
		}
	}
	for _, id := range st.queued {
		st.unran[id] = true
		st.tr.SetQueued(st.entry, id, 0)
	}
	st.asking, st.queued = nil, nil
	st.numberAsking()
	for id := range st.started {
		st.ran(id)
	}
}

// numberAsking shows each waiting approval's place in the queue on its card.
func (st *step) numberAsking() { st.tr.NumberAsking(st.entry, st.asking) }

// ran says call id no longer runs: its card stops counting time and showing output.
func (st *step) ran(id string) {
	delete(st.started, id)
	st.tr.SetElapsed(st.entry, id, 0)
	st.tr.SetOutput(st.entry, id, "")
}
