package chat

import (
	"context"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// step is one request of a turn and the tools its calls started. It ends when its stream
// ends and every call is final (then it is committed to the history), or on Stop or an error.
//
// Each call's whole life (approval, queueing, running, its result or interruption) lives in
// calls, the state machine; the entry's card of a call shows the machine's snapshot, handed
// over by apply after every event, so the two cannot disagree.
type step struct {
	id     int
	ctx    context.Context // the request's and its tools' context
	cancel context.CancelFunc
	tr     *transcript.Transcript
	entry  *transcript.Entry
	calls  *phase.ToolCalls
	src    Source // nil until the first update arrives
	ended  bool   // the stream ended complete; only tools may be outstanding
	// reply is the stream's reassembled message once it ended complete: where its reasoning
	// came in and each call's provider-specific fields, which go back in the tool loop.
	reply  wire.Message
	cutOff string // why the server cut the reply off (wire.CutOff); "" when it did not
	// loggedText and loggedReasoning are how much of the reply's text and reasoning Live
	// records hold so far.
	loggedText, loggedReasoning int
}

func newStep(id int, ctx context.Context, cancel context.CancelFunc, tr *transcript.Transcript, entry *transcript.Entry) *step {
	return &step{id: id, ctx: ctx, cancel: cancel, tr: tr, entry: entry, calls: phase.NewToolCalls()}
}

// apply folds one event into the calls' state machine and shows the new snapshots on the
// cards (a start the machine accepted adds the card). An event that moves a call into, out
// of or along the approval or slot queues, or changes how many run, can change the
// snapshots of the calls waiting there too, so theirs are handed over as well. It returns the
// event's call and whether the machine knows it.
func (st *step) apply(ev phase.CallEvent) (phase.ToolCall, bool) {
	st.calls.Apply(ev)
	call, ok := st.calls.Get(ev.ID)
	if ok {
		st.tr.SetCall(st.entry, call)
	}
	switch ev.Type {
	case phase.CallStart, phase.CallDelta, phase.CallReady:
	default:
		for _, other := range st.calls.Waiting() {
			st.tr.SetCall(st.entry, other)
		}
	}
	return call, ok
}

// showAll hands every card its call's snapshot.
func (st *step) showAll() {
	for _, call := range st.calls.List() {
		st.tr.SetCall(st.entry, call)
	}
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

// interrupt ends every unfinished call with why, through the calls' state machine, and shows
// each card as its call now stands; the tools are being cancelled.
func (st *step) interrupt(why phase.Interruption) {
	st.calls.Interrupt(why)
	st.showAll()
}
