package stream

import (
	"sync"
	"sync/atomic"
	"time"
)

// watchdog calls fire once the server has been silent for timeout while the consumer waited
// for it. Time the consumer spends away (between Next calls, with the server's data waiting
// in the buffers) is not silence: the watchdog only counts while waiting is set, and the
// clock restarts when waiting begins. Activity is a single atomic store, so it can be
// reported on every read; the timer re-arms itself for the remaining time instead of being
// reset per read. A timer that comes due much later than it was set for means the process
// could not run (stopped with Ctrl+Z, held in a debugger): the silence is counted again from
// then, since the server's data may be waiting unread. A zero timeout never fires.
type watchdog struct {
	timeout time.Duration
	fire    func()
	start   time.Time
	last    atomic.Int64 // nanoseconds after start of the last activity
	waiting atomic.Bool  // the consumer is blocked waiting for the server

	mu      sync.Mutex
	timer   *time.Timer
	due     time.Time // when the timer was last set to fire
	stopped bool
}

// startWatchdog arms a watchdog for a consumer that is already waiting.
func startWatchdog(timeout time.Duration, fire func()) *watchdog {
	w := &watchdog{timeout: timeout, fire: fire, start: time.Now()}
	w.waiting.Store(true)
	if timeout > 0 {
		w.due = time.Now().Add(timeout)
		w.timer = time.AfterFunc(timeout, w.check)
	}
	return w
}

// touch records activity now.
func (w *watchdog) touch() { w.last.Store(int64(time.Since(w.start))) }

// wait marks the consumer as waiting for the server from now on.
func (w *watchdog) wait() {
	w.touch()
	w.waiting.Store(true)
}

// away marks the consumer as busy elsewhere: silence is not counted until the next wait.
func (w *watchdog) away() { w.waiting.Store(false) }

func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if time.Since(w.due) > max(time.Second, w.timeout/2) {
		w.touch() // the process was not running: what the server sent meanwhile is unread
	}
	if !w.waiting.Load() {
		w.rearm(w.timeout)
		return
	}
	idle := time.Since(w.start) - time.Duration(w.last.Load())
	if idle < w.timeout {
		w.rearm(w.timeout - idle)
		return
	}
	w.stopped = true
	w.fire()
}

// rearm sets the timer to fire after d. mu is held.
func (w *watchdog) rearm(d time.Duration) {
	w.due = time.Now().Add(d)
	w.timer.Reset(d)
}

// stop disarms the watchdog; fire is not called after stop returns.
func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
}
