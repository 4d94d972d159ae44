package stream

import (
	"sync"
	"sync/atomic"
	"time"
)

// watchdog calls fire once when no activity has been reported for timeout. Activity is a
// single atomic store, so it can be reported on every read; the timer re-arms itself for
// the remaining time instead of being reset per read. A zero timeout never fires.
type watchdog struct {
	timeout time.Duration
	fire    func()
	start   time.Time
	last    atomic.Int64 // nanoseconds after start of the last activity

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

func startWatchdog(timeout time.Duration, fire func()) *watchdog {
	w := &watchdog{timeout: timeout, fire: fire, start: time.Now()}
	if timeout > 0 {
		w.timer = time.AfterFunc(timeout, w.check)
	}
	return w
}

// touch records activity now.
func (w *watchdog) touch() { w.last.Store(int64(time.Since(w.start))) }

func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	idle := time.Since(w.start) - time.Duration(w.last.Load())
	if idle < w.timeout {
		w.timer.Reset(w.timeout - idle)
		return
	}
	w.stopped = true
	w.fire()
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
