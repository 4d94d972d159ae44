package testwait

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeTB is a test whose binary stops at end (none when !bounded), recording a failure.
type fakeTB struct {
	end     time.Time
	bounded bool
	failed  string
}

func (f *fakeTB) Helper()                           {}
func (f *fakeTB) Fatalf(format string, args ...any) { f.failed = fmt.Sprintf(format, args...) }
func (f *fakeTB) Deadline() (time.Time, bool)       { return f.end, f.bounded }

func TestPatienceKeepsAMarginBeforeTheDeadline(t *testing.T) {
	for _, tc := range []struct {
		name     string
		left     time.Duration
		bounded  bool
		min, max time.Duration
	}{
		{"no deadline", 0, false, unbounded, unbounded},
		{"ten minutes: 30 s kept back", 10 * time.Minute, true, 9*time.Minute + 29*time.Second, 9*time.Minute + 30*time.Second},
		{"a minute: a tenth kept back", time.Minute, true, 53 * time.Second, 54 * time.Second},
		{"past", -time.Second, true, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Patience(&fakeTB{end: time.Now().Add(tc.left), bounded: tc.bounded})
			if got < tc.min || got > tc.max {
				t.Errorf("Patience = %v, want within [%v, %v]", got, tc.min, tc.max)
			}
		})
	}
}

func TestPatienceOfATestWithoutDeadlineMethodFollowsTheTimeoutFlag(t *testing.T) {
	// A benchmark has no Deadline method: its bound is the binary's -timeout from its start.
	type bare struct{ TB }
	got := Patience(bare{t})
	end, ok := t.Deadline()
	if !ok {
		if got != unbounded {
			t.Errorf("Patience without -timeout = %v, want %v", got, unbounded)
		}
		return
	}
	if want := time.Until(end); got > want || got < want-maxMargin-time.Minute {
		t.Errorf("Patience = %v, want a little under the %v left", got, want)
	}
}

func TestForSeesAConditionAsSoonAsItHolds(t *testing.T) {
	var tries atomic.Int32
	if !For(t, func() bool { return tries.Add(1) == 5 }) {
		t.Fatal("For gave up on a condition that held on its fifth try")
	}
	if got := tries.Load(); got != 5 {
		t.Errorf("tried %d times, want 5", got)
	}
}

func TestForBacksOffInsteadOfSpinning(t *testing.T) {
	f := &fakeTB{end: time.Now().Add(300 * time.Millisecond), bounded: true}
	var tries int
	if For(f, func() bool { tries++; return false }) {
		t.Fatal("For reported a condition that never held")
	}
	// Pauses grow from 1 ms to 50 ms: about a dozen tries in 270 ms; spinning would make
	// thousands.
	if tries > 40 {
		t.Errorf("%d tries in 270 ms, want the pauses to grow", tries)
	}
}

func TestUntilFailsWithWhatDidNotHappen(t *testing.T) {
	f := &fakeTB{end: time.Now().Add(20 * time.Millisecond), bounded: true}
	Until(f, func() bool { return false }, "the %s never opened", "door")
	if !strings.HasPrefix(f.failed, "after ") || !strings.HasSuffix(f.failed, ": the door never opened") {
		t.Errorf("failure %q, want how long it waited and what did not happen", f.failed)
	}
	ok := &fakeTB{end: time.Now().Add(20 * time.Millisecond), bounded: true}
	Until(ok, func() bool { return true }, "never shown")
	if ok.failed != "" {
		t.Errorf("Until failed on a condition that held: %q", ok.failed)
	}
}

func TestAfterAndDeadlineFollowPatience(t *testing.T) {
	f := &fakeTB{end: time.Now().Add(30 * time.Millisecond), bounded: true}
	if d := time.Until(Deadline(f)); d > 30*time.Millisecond {
		t.Errorf("Deadline is %v away, past the binary's own", d)
	}
	<-After(f) // one that never fired would hold the test until go test's -timeout
}
