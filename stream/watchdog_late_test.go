package stream

import (
	"testing"
	"time"
)

// A timer that comes due long after it was set for (the process was stopped with Ctrl+Z for
// longer than the timeout, the server's data waiting unread) does not fire: the silence is
// counted again from then. A timer on time, after as long a silence, fires.
func TestAWatchdogWokenLateCountsTheSilenceAgain(t *testing.T) {
	fired := 0
	w := startWatchdog(time.Hour, func() { fired++ })
	defer w.stop()
	silentFor := func(d time.Duration) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.start = w.start.Add(-d)
	}

	silentFor(3 * time.Hour)
	w.mu.Lock()
	w.due = time.Now().Add(-2 * time.Hour)
	w.mu.Unlock()
	w.check()
	if fired != 0 {
		t.Fatal("the watchdog fired on waking late, before the stream could be read")
	}

	silentFor(3 * time.Hour)
	w.mu.Lock()
	w.due = time.Now()
	w.mu.Unlock()
	w.check()
	if fired != 1 {
		t.Fatalf("the watchdog fired %d times on time after a silence longer than its timeout, want 1", fired)
	}
}
