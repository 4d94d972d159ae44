package perform

import (
	"cmp"
	"sync"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// pump reads a source on a goroutine of its own, so a pull can wait a bounded time for more
// updates: a Next that blocks on the network cannot be given a deadline. It reads at most
// readAhead updates ahead of the pulls; while they are not taken it does not read, so a
// slow screen holds the stream back (and its silence does not count as the server's).
//
// The pump owns the source from the moment it starts: Next and Result are called on its
// goroutine only. Close may be called from any goroutine at any time, like the stream's own.
type pump struct {
	src   chat.Source
	items chan pumped
	done  chan struct{} // closed by Close: the pump stops handing updates over
	stop  sync.Once

	// The reading side, touched only by the pulls, which the engine asks for one at a time:
	// when the last pull returned, and the end of the stream once it was taken.
	handed time.Time
	end    *pumped
}

// readAhead is how many updates a pump reads before they are taken.
const readAhead = 256

// pumped is one update read by the pump; the last one (more false) carries the result.
type pumped struct {
	update wire.Update
	more   bool
	result wire.Result
}

func newPump(src chat.Source) *pump {
	p := &pump{src: src, items: make(chan pumped, readAhead), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *pump) run() {
	defer close(p.items) // a pull waiting after Close is not left waiting
	for {
		u, more := p.src.Next()
		it := pumped{update: u, more: more}
		if !more {
			it.result = p.src.Result()
		}
		select {
		case p.items <- it:
		case <-p.done:
			return
		}
		if !more {
			return
		}
	}
}

// Next and Result read the pump unpaced, one update at a time, as the source would be read.
func (p *pump) Next() (wire.Update, bool) {
	it := p.take()
	return it.update, it.more
}

// Result is the source's result; it waits for the end of the stream.
func (p *pump) Result() wire.Result {
	for p.take().more {
	}
	return p.end.result
}

// take blocks for the next update; once the end has been taken it is given again.
func (p *pump) take() pumped {
	if p.end != nil {
		return *p.end
	}
	it, ok := <-p.items
	return p.taken(it, ok)
}

// taken is what a receive from items gave (ok false: the pump has closed it), keeping the
// end of the stream for later takes.
func (p *pump) taken(it pumped, ok bool) pumped {
	if !ok {
		it = closedEnd
	}
	if !it.more {
		p.end = &it
	}
	return it
}

// closedEnd is what a pull takes from a pump closed before it handed the end over: the engine
// closes a source only once it expects nothing more of it, so this is never folded.
var closedEnd = pumped{result: wire.Result{Outcome: wire.OutcomeStopped}}

// Close stops the source (which makes a Next in flight return) and the pump with it.
func (p *pump) Close() {
	p.stop.Do(func() { close(p.done) })
	p.src.Close()
}

// pacedBatch bounds a paced pull when Performer.MaxBatch does not: a frame's worth of the
// fastest local stream is a few thousand updates, and the engine folds 16k in a few
// milliseconds, so a key pressed meanwhile (Esc) still waits far less than P4's 100 ms.
const pacedBatch = 1 << 14

// pullPaced is pull for a pumped source. It blocks for the next update, then takes every
// update already read behind it and, while the frame that began when the previous pull
// returned is not over, waits for more: a stream faster than the screen reaches it about once
// a frame, and a slow one (the next update comes after the frame) is handed over at once. A
// batch ends early at the stream's end, at pacedBatch updates (Performer.MaxBatch), and at an
// update that makes a call ready, so a tool never waits for the frame.
func (p *Performer) pullPaced(req int, pm *pump) chat.StreamMsg {
	now, after := p.clock()
	first := pm.take()
	msg := chat.StreamMsg{Req: req, Src: pm, Update: first.update, More: first.more, Result: first.result}
	limit := cmp.Or(p.MaxBatch, pacedBatch)
	frameEnd := pm.handed.Add(p.Frame)
	var timer <-chan time.Time
	for last := first; last.more && len(msg.Rest) < limit-1 && !readiesCall(last.update); {
		var ok bool
		if last, ok = pm.next(frameEnd, now, after, &timer); !ok {
			break
		}
		if !last.more {
			msg.More, msg.Result = false, last.result
			break
		}
		msg.Rest = append(msg.Rest, last.update)
	}
	pm.handed = now()
	return msg
}

// next is the next update if it was already read, or is read before frameEnd; ok is false
// when the frame ended first. The frame's timer is made on the first wait and kept in timer.
func (p *pump) next(frameEnd time.Time, now func() time.Time, after func(time.Duration) <-chan time.Time, timer *<-chan time.Time) (pumped, bool) {
	select {
	case it, ok := <-p.items:
		return p.taken(it, ok), true
	default:
	}
	wait := frameEnd.Sub(now())
	if wait <= 0 {
		return pumped{}, false
	}
	if *timer == nil {
		*timer = after(wait)
	}
	select {
	case it, ok := <-p.items:
		return p.taken(it, ok), true
	case <-*timer:
		*timer = frameOver // later waits of this pull end at once
		select {
		case it, ok := <-p.items: // it was there when the frame ended: it arrived within it
			return p.taken(it, ok), true
		default:
		}
		return pumped{}, false
	}
}

// frameOver is a timer that has fired: a pull whose frame ended takes only what is there.
var frameOver = func() <-chan time.Time {
	c := make(chan time.Time)
	close(c)
	return c
}()

// clock is the performer's batching clock and timer: the real ones unless a test set its own.
func (p *Performer) clock() (now func() time.Time, after func(time.Duration) <-chan time.Time) {
	now, after = p.now, p.after
	if now == nil {
		now = time.Now
	}
	if after == nil {
		after = time.After
	}
	return now, after
}
