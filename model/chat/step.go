package chat

import (
	"context"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view"
)

// step is one request of a turn and the tools its calls started. It ends when its stream
// ends and every call is final (then it is committed to the history), or on Stop or an error.
type step struct {
	id     int
	ctx    context.Context // the request's and its tools' context
	cancel context.CancelFunc
	entry  *view.Entry
	calls  *phase.ToolCalls
	cards  map[string]int  // call id → index in entry.Cards
	src    Source          // nil until the first update arrives
	ended  bool            // the stream ended complete; only tools may be outstanding
	asking []string        // call ids waiting for approval, oldest first
	unran  map[string]bool // calls an interruption caught waiting for approval: they never ran
	// reply is the stream's reassembled message once it ended complete: where its reasoning
	// came in and each call's provider-specific fields, which go back in the tool loop.
	reply  stream.Message
	cutOff string          // why the server cut the reply off (stream.CutOff); "" when it did not
	unsent map[string]bool // calls the stream ended unfinished: kept out of the history
}

func newStep(id int, ctx context.Context, cancel context.CancelFunc, entry *view.Entry) *step {
	return &step{id: id, ctx: ctx, cancel: cancel, entry: entry, calls: phase.NewToolCalls(), cards: map[string]int{}, unsent: map[string]bool{}}
}

// release ends the step's context and closes its source.
func (st *step) release() []Effect {
	effects := []Effect{Cancel{Cancel: st.cancel}}
	if st.src != nil {
		effects = append(effects, CloseSource{Src: st.src})
	}
	st.entry.Streaming = false
	st.entry.Version++
	return effects
}

// card returns the transcript card of a call.
func (st *step) card(id string) *view.Card {
	i, ok := st.cards[id]
	if !ok {
		return nil
	}
	return &st.entry.Cards[i]
}

// sync copies the reply so far into the transcript entry.
func (st *step) sync(s phase.State) {
	st.entry.Text = s.Text.String()
	st.entry.Reasoning = s.Reasoning.String()
	st.entry.Version++
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
	for _, id := range st.asking {
		if st.unran == nil {
			st.unran = map[string]bool{}
		}
		st.unran[id] = true
	}
	st.calls.Interrupt(why)
	for _, call := range st.calls.List() {
		if card := st.card(call.ID); card != nil && call.Status == phase.CallError && !card.IsError {
			card.Status, card.Result, card.IsError, card.Asking = call.Status, errorText(call.Error), true, false
		}
	}
	st.asking = nil
	st.entry.Version++
}
