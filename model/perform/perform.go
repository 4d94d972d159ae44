// Package perform does the I/O the chat engine asks for: it opens streams, pulls their
// updates, runs tools, cancels and closes. Both front ends call Do from their own goroutines
// (Bubble Tea commands, or the line mode's workers) and feed its answer back to the engine.
package perform

import (
	"cmp"
	"context"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
)

// Performer holds what effects need. Tools may be nil when no tools are offered. Route, when
// not nil, gives the client of a named provider (resolving its key the first time, which may
// run a command); requests naming no provider, or any provider when Route is nil, go to
// Client.
type Performer struct {
	Client *stream.Client
	Route  func(ctx context.Context, provider string) (*stream.Client, error)
	Tools  *tools.Registry
	// Wrap, when set, is given every source opened, and the engine reads what it returns
	// instead: a front end that must see how each stream ended (the one-shot mode's exit
	// code) watches it there. Wrap's source is read on the performer's goroutines.
	Wrap func(chat.Source) chat.Source
	// MaxBatch is the most updates one pull takes (0: 256, or 16k when Frame paces the pulls).
	// 1 hands the engine every update in a message of its own, for a caller that steps
	// through a stream frame by frame.
	MaxBatch int
	// Frame, when positive, paces a stream's pulls to a screen refreshed this often: every
	// stream is read on a goroutine of its own, and a pull that has taken an update waits until
	// a Frame has passed since the previous pull returned, taking what arrives meanwhile (see
	// pullPaced). 0: a pull takes only what the source already buffered, and waits for nothing.
	Frame time.Duration

	// now and after are the batching clock and timer; nil: time.Now and time.After. Tests give
	// their own.
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
}

// Do performs one effect, blocking until it is done, and returns the message the engine must
// get back (chat.StreamMsg or chat.ToolDoneMsg), or nil. chat.Record is not handled here: the
// front end queues records in order itself.
func (p *Performer) Do(e chat.Effect) any {
	switch e := e.(type) {
	case chat.OpenStream:
		src := p.open(e)
		if p.Frame > 0 && p.MaxBatch != 1 {
			pm := newPump(src)
			return p.pullPaced(e.Req, pm)
		}
		return p.pull(e.Req, src)
	case chat.PullNext:
		if pm, ok := e.Src.(*pump); ok {
			return p.pullPaced(e.Req, pm)
		}
		return p.pull(e.Req, e.Src)
	case chat.CloseSource:
		e.Src.Close()
	case chat.Cancel:
		e.Cancel()
	case chat.RunTool:
		if e.Durable != nil && p.Tools != nil && p.Tools.SideEffects(e.Call.Name) {
			e.Durable() // a log that cannot be written has said so; the tool runs all the same
		}
		if !e.Watch || p.Tools == nil {
			return chat.ToolDoneMsg{Req: e.Req, CallID: e.Call.ID, Result: engineResult(p.run(e.Ctx, readyCall(e.Call)))}
		}
		w := newToolWatch(e.Req, e.Call.ID)
		go func() {
			res := p.Tools.RunWatched(e.Ctx, readyCall(e.Call), w.set)
			w.finish(chat.ToolDoneMsg{Req: e.Req, CallID: e.Call.ID, Result: engineResult(res)})
		}()
		return w.next()
	case chat.AwaitTool:
		return e.Next()
	}
	return nil
}

func (p *Performer) open(e chat.OpenStream) chat.Source {
	var src chat.Source
	client := p.Client
	if e.Provider != "" && p.Route != nil {
		c, err := p.Route(e.Ctx, e.Provider)
		switch {
		case err != nil && e.Ctx.Err() != nil:
			src = newReplay(wire.Result{Outcome: wire.OutcomeStopped})
		case err != nil:
			// The provider cannot be reached as configured (its key cannot be read): only a
			// change the user makes can help.
			src = newReplay(wire.Result{Outcome: wire.OutcomeError, Err: &wire.Error{Message: err.Error(), Cause: err, Helps: wire.RetryUseless}})
		}
		client = c
	}
	switch {
	case src != nil:
	case e.Buffered:
		res, _ := client.Complete(e.Ctx, e.Request)
		src = newReplay(res)
	default:
		s := client.Stream(e.Ctx, e.Request)
		s.LeaveText() // the engine gathers the reply from the updates
		src = s
	}
	if p.Wrap != nil {
		src = p.Wrap(src)
	}
	return src
}

func (p *Performer) run(ctx context.Context, call tools.Call) tools.Result {
	if p.Tools == nil {
		return tools.Result{CallID: call.ID, Name: call.Name, Output: phase.NotRunNoTools.Text(), IsError: true, Outcome: tools.OutcomeRejected, ExitCode: -1}
	}
	return p.Tools.Run(ctx, call)
}

// Batching bounds: a pull takes at most defaultBatch updates (Performer.MaxBatch), and takes
// no more once batchTime has passed since its first, so a fast stream reaches the screen about
// once a frame and a key pressed meanwhile (Esc) waits for no more than one bounded batch.
const (
	defaultBatch = 256
	batchTime    = 8 * time.Millisecond
)

// readySource is a Source that can tell whether its next update is already buffered.
type readySource interface {
	Ready() bool
}

// pull takes the source's next update, blocking for it, and then the updates the source
// already holds behind it (within the batching bounds), so the engine folds what arrived
// together in one message. A batch ends with an update that makes a call ready, so a tool
// never waits for the rest of a batch to start.
func (p *Performer) pull(req int, src chat.Source) chat.StreamMsg {
	u, more := src.Next()
	msg := chat.StreamMsg{Req: req, Src: src, Update: u, More: more}
	limit := cmp.Or(p.MaxBatch, defaultBatch)
	if rs, ok := src.(readySource); ok && more && limit > 1 && !readiesCall(u) {
		now, _ := p.clock()
		start := now()
		for len(msg.Rest) < limit-1 && rs.Ready() && now().Sub(start) < batchTime {
			u, more := src.Next()
			if !more {
				msg.More = false
				break
			}
			msg.Rest = append(msg.Rest, u)
			if readiesCall(u) {
				break
			}
		}
	}
	if !msg.More {
		msg.Result = src.Result()
	}
	return msg
}

// readiesCall reports whether u makes a tool call ready to run.
func readiesCall(u wire.Update) bool {
	for _, ev := range u.Calls {
		if ev.Type == phase.CallReady {
			return true
		}
	}
	return false
}

// replay is a buffered answer served as the updates a stream of it would have given.
type replay struct {
	updates []wire.Update
	result  wire.Result
}

func newReplay(res wire.Result) *replay {
	return &replay{updates: wire.BufferedUpdates(res), result: res}
}

func (r *replay) Next() (wire.Update, bool) {
	if len(r.updates) == 0 {
		return wire.Update{}, false
	}
	u := r.updates[0]
	r.updates = r.updates[1:]
	return u, true
}

// Ready is true: a buffered answer never waits.
func (r *replay) Ready() bool { return true }

func (r *replay) Result() wire.Result { return r.result }
func (r *replay) Close()              {}
