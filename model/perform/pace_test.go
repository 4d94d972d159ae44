package perform

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// fed is a source whose updates arrive when the test sends them (a closed feed ends it), as a
// server's would; Close ends a Next waiting for one.
type fed struct {
	feed      chan wire.Update
	closed    chan struct{}
	closeOnce sync.Once
	nexts     atomic.Int64 // how many times Next was entered
}

func newFed() *fed {
	return &fed{feed: make(chan wire.Update), closed: make(chan struct{})}
}

func (f *fed) Next() (wire.Update, bool) {
	f.nexts.Add(1)
	select {
	case u, ok := <-f.feed:
		return u, ok
	case <-f.closed:
		return wire.Update{}, false
	}
}

func (f *fed) Result() wire.Result {
	select {
	case <-f.closed:
		return wire.Result{Outcome: wire.OutcomeStopped}
	default:
		return wire.Result{Outcome: wire.OutcomeComplete}
	}
}

func (f *fed) Close() { f.closeOnce.Do(func() { close(f.closed) }) }

// frameClock is a clock the test moves, and the timers a pull asks of it, fired by the test.
type frameClock struct {
	mu     sync.Mutex
	t      time.Time
	timers chan chan time.Time // every timer asked for, in order
}

func newFrameClock() *frameClock {
	return &frameClock{t: time.Unix(1000, 0), timers: make(chan chan time.Time, 16)}
}

func (c *frameClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *frameClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func (c *frameClock) after(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.timers <- ch
	return ch
}

// pulled runs a paced pull of pm on its own goroutine and returns where its message comes.
func pulled(p *Performer, pm *pump) <-chan chat.StreamMsg {
	out := make(chan chat.StreamMsg, 1)
	go func() { out <- p.Do(chat.PullNext{Req: 1, Src: pm}).(chat.StreamMsg) }()
	return out
}

const frame = 16 * time.Millisecond

// pacedPump is a pump reading a fed source, and a pacing Performer (MaxBatch maxBatch) on the
// test's clock; the pump is closed when the test ends.
func pacedPump(t *testing.T, maxBatch int) (*frameClock, *fed, *Performer, *pump) {
	clk, f := newFrameClock(), newFed()
	pm := newPump(f)
	t.Cleanup(pm.Close)
	return clk, f, &Performer{Frame: frame, MaxBatch: maxBatch, now: clk.now, after: clk.after}, pm
}

func text(n int) wire.Update {
	return wire.Update{N: n, Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "x"}}}
}

// waitNexts waits until the source's Next has been entered n times.
func waitNexts(f *fed, n int) {
	for f.nexts.Load() < int64(n) {
		runtime.Gosched()
	}
}

// waitBuffered waits until the pump holds n updates read ahead.
func waitBuffered(pm *pump, n int) {
	for len(pm.items) < n {
		runtime.Gosched()
	}
}

// waitPumpGone waits until the pump's goroutine has ended (it closes items as it goes).
func waitPumpGone(pm *pump) {
	for range pm.items {
	}
}

// A stream slower than the screen is handed over update by update, with no wait: the frame
// that began when the last pull returned is over when the next update comes.
func TestPacedPullOfASlowStreamWaitsForNothing(t *testing.T) {
	clk, f, p, pm := pacedPump(t, 0)
	for n := 1; n <= 3; n++ {
		out := pulled(p, pm)
		clk.advance(frame + time.Millisecond) // the server takes longer than a frame
		f.feed <- text(n)
		msg := <-out
		if got := numbers(msg); len(got) != 1 || got[0] != n || !msg.More {
			t.Fatalf("pull %d took %v (More %v); want [%d] and more", n, got, msg.More, n)
		}
	}
	if len(clk.timers) != 0 {
		t.Fatalf("a pull of a slow stream waited for a frame")
	}
}

// Within a frame a pull waits for the frame's end and takes everything that came meanwhile.
func TestPacedPullTakesWhatArrivesWithinTheFrame(t *testing.T) {
	clk, f, p, pm := pacedPump(t, 0)
	f.feed <- text(1)
	if got := numbers(<-pulled(p, pm)); len(got) != 1 {
		t.Fatalf("the first pull took %v; want the first update alone", got)
	}
	out := pulled(p, pm)
	f.feed <- text(2)
	timer := <-clk.timers // the pull has update 2 and waits for the frame's end
	f.feed <- text(3)
	f.feed <- text(4)
	waitNexts(f, 5) // 4 is read and handed to the pull's side
	clk.advance(frame)
	timer <- clk.now()
	if got := numbers(<-out); len(got) != 3 || got[0] != 2 || got[2] != 4 {
		t.Fatalf("the pull within a frame took %v; want [2 3 4]", got)
	}
}

// What the pump has read ahead is taken at once, up to the batch's bounds, without waiting.
func TestPacedPullTakesTheReadAheadWithoutWaiting(t *testing.T) {
	readying := text(3)
	readying.Calls = []phase.CallEvent{{Type: phase.CallReady, ID: "c"}}
	cases := []struct {
		name     string
		updates  []wire.Update
		maxBatch int
		end      bool // the feed ends after the updates
		want     []int
		more     bool
	}{
		{"a readied call ends the batch", []wire.Update{text(1), text(2), readying, text(4)}, 0, false, []int{1, 2, 3}, true},
		{"at most MaxBatch", []wire.Update{text(1), text(2), text(3), text(4)}, 3, false, []int{1, 2, 3}, true},
		{"the end ends the batch", []wire.Update{text(1), text(2)}, 0, true, []int{1, 2}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk, f, p, pm := pacedPump(t, c.maxBatch)
			for _, u := range c.updates {
				f.feed <- u
			}
			n := len(c.updates)
			if c.end {
				close(f.feed)
				n++
			}
			waitBuffered(pm, n)
			pm.handed = clk.now() // a frame has just begun: only a wait could add more
			msg := <-pulled(p, pm)
			if got := numbers(msg); len(got) != len(c.want) || got[0] != c.want[0] || got[len(got)-1] != c.want[len(c.want)-1] || msg.More != c.more {
				t.Fatalf("took %v (More %v); want %v (More %v)", got, msg.More, c.want, c.more)
			}
			if !c.more && msg.Result.Outcome != wire.OutcomeComplete {
				t.Fatalf("the batch that ends the stream has no result: %+v", msg.Result)
			}
			if len(clk.timers) != 0 {
				t.Fatalf("waited for the frame although the batch was complete")
			}
		})
	}
}

// The stream's end within the frame is handed over at once, with its result.
func TestPacedPullHandsTheEndOverAtOnce(t *testing.T) {
	clk, f, p, pm := pacedPump(t, 0)
	f.feed <- text(1)
	<-pulled(p, pm)
	out := pulled(p, pm)
	f.feed <- text(2)
	<-clk.timers
	close(f.feed)
	msg := <-out
	if got := numbers(msg); len(got) != 1 || got[0] != 2 || msg.More || msg.Result.Outcome != wire.OutcomeComplete {
		t.Fatalf("took %v (More %v, %+v); want [2], the end and its result", got, msg.More, msg.Result)
	}
}

// Closing a pumped source (a stop) ends its pump, and a pull waiting on it, whatever the pump
// was doing: waiting for the server, or for the pulls to take what it read ahead.
func TestClosedPumpEndsItsPull(t *testing.T) {
	for _, read := range []int{0, 1, readAhead + 5} {
		clk, f := newFrameClock(), newFed()
		p := &Performer{Frame: frame, now: clk.now, after: clk.after}
		pm := newPump(f) // closed by the test itself
		fedAll := make(chan struct{})
		go func() {
			defer close(fedAll)
			for n := range read {
				select {
				case f.feed <- text(n + 1):
				case <-f.closed:
					return
				}
			}
		}()
		waitBuffered(pm, min(read, readAhead))
		var out <-chan chat.StreamMsg
		if read == 0 {
			out = pulled(p, pm)
			waitNexts(f, 1)
		}
		pm.Close()
		if out != nil {
			if msg := <-out; msg.More {
				t.Fatalf("a pull waiting on a closed source got more: %+v", msg)
			}
		}
		waitPumpGone(pm)
		<-fedAll
	}
}
