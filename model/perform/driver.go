package perform

import (
	"sync/atomic"

	"github.com/phasechat/phasechat/model/chat"
)

// Recorder keeps the session log; Add must only queue.
type Recorder interface{ Add(chat.Record) }

// Syncer is a Recorder that can put what it was given on disk: Sync returns once every record
// added before it is written and synced.
type Syncer interface{ Sync() error }

// Driver runs an engine outside Bubble Tea (the line mode, headless tests): effects are
// performed on goroutines of its own and their answers arrive on Results, which the owner of
// the engine reads and passes to Handle — on one goroutine, so the engine is never shared.
type Driver struct {
	Chat      *chat.Chat
	Performer *Performer
	Log       Recorder // nil: no log
	// Timer arms the engine's Waits (chat.Wait), on the goroutine that applies them; the
	// owner hands each back to Chat.TimeUp when its time comes. nil: Waits are dropped.
	Timer func(chat.Wait)

	results  chan any
	finished chan struct{} // holds a token once an effect has been performed, for Wait
	// inFlight counts effects started and not yet performed. An effect's answer is sent on
	// results before it is counted out, so when inFlight is 0 every answer is in results.
	inFlight atomic.Int64
}

// LogRecords adds the records among effects to log (nil: none is kept), in their order, and
// returns the other effects, in theirs, in effects' own storage (which the caller gives up):
// the one way every front end's records reach the log. A tool to run is given the log's Sync
// (when it has one) as its Durable, so that its start is on disk before it starts.
func LogRecords(effects []chat.Effect, log Recorder) []chat.Effect {
	rest := effects[:0] // in place: per token, a new slice would be an allocation
	for _, e := range effects {
		switch e := e.(type) {
		case chat.Record:
			if log != nil {
				log.Add(e)
			}
			continue
		case chat.RunTool:
			if s, ok := log.(Syncer); ok {
				e.Durable = s.Sync
				rest = append(rest, e)
				continue
			}
		}
		rest = append(rest, e)
	}
	return rest
}

// NewDriver returns a driver for c.
func NewDriver(c *chat.Chat, p *Performer, log Recorder) *Driver {
	return &Driver{Chat: c, Performer: p, Log: log, results: make(chan any, 64), finished: make(chan struct{}, 1)}
}

// Results delivers the answers of performed effects (chat.StreamMsg, chat.ToolDoneMsg).
func (d *Driver) Results() <-chan any { return d.results }

// Apply performs effects: records are queued in order at once, everything else runs on its own
// goroutine.
func (d *Driver) Apply(effects []chat.Effect) {
	for _, e := range LogRecords(effects, d.Log) {
		if w, ok := e.(chat.Wait); ok {
			if d.Timer != nil {
				d.Timer(w)
			}
			continue
		}
		d.inFlight.Add(1)
		go func() {
			if msg := d.Performer.Do(e); msg != nil {
				d.results <- msg
			}
			d.inFlight.Add(-1)
			select {
			case d.finished <- struct{}{}:
			default: // a token is waiting already
			}
		}()
	}
}

// Handle folds one answer into the engine and performs what follows from it.
func (d *Driver) Handle(msg any) {
	switch m := msg.(type) {
	case chat.StreamMsg:
		d.Apply(d.Chat.HandleStream(m))
	case chat.ToolDoneMsg:
		d.Apply(d.Chat.HandleToolDone(m))
	}
}

// Wait blocks until every effect in flight has been performed, handling answers as they come
// (which may start more effects: those are waited for too). Call it after the last Stop,
// before dropping the driver, so no goroutine is left behind.
func (d *Driver) Wait() {
	for {
		idle := d.inFlight.Load() == 0 // read before results: then every answer is in there
		select {
		case msg := <-d.results:
			d.Handle(msg)
			continue
		default:
		}
		if idle {
			return
		}
		select {
		case msg := <-d.results:
			d.Handle(msg)
		case <-d.finished:
		}
	}
}
