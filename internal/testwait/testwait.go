// Package testwait bounds how long a test waits for a condition by the test binary's own
// deadline, never by a fixed window a loaded machine can exceed. A condition that holds is seen
// as soon as it holds; one that never holds fails the test with time left to print its evidence
// before go test's -timeout stops the binary. Only tests import this package.
//
// The helpers are variables holding functions: deadcode, run as CI runs it (without -test),
// reports every named function that the program's main cannot reach, and nothing but tests
// reaches these (deadcode -test ./... sees them used).
package testwait

import (
	"flag"
	"fmt"
	"time"
)

// TB is what the helpers need of a *testing.T, *testing.B or *testing.F.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// unbounded is how long a test may wait when the binary has no deadline (go test -timeout 0).
const unbounded = 10 * time.Minute

// maxMargin caps the time kept back, before the binary's deadline, to report a failure.
const maxMargin = 30 * time.Second

// maxPause caps the pause between two tries of a polled condition.
const maxPause = 50 * time.Millisecond

// started approximates when the test binary began: go test's -timeout counts from about then.
// It bounds a benchmark, which has no Deadline method.
var started = time.Now()

// deadline is when the test binary will be stopped, when it will be.
var deadline = func(t TB) (time.Time, bool) {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		return d.Deadline()
	}
	return binaryDeadline()
}

// binaryDeadline is when go test's -timeout stops the binary, when it does.
var binaryDeadline = func() (time.Time, bool) {
	if f := flag.Lookup("test.timeout"); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			if timeout, ok := g.Get().(time.Duration); ok && timeout > 0 {
				return started.Add(timeout), true
			}
		}
	}
	return time.Time{}, false
}

// Patience is how long t may still wait for a condition: the time left until the test binary's
// deadline less a tenth of it or maxMargin, whichever is less, kept to report the failure;
// unbounded when the binary has no deadline. It is never negative.
var Patience = func(t TB) time.Duration {
	return patienceUntil(deadline(t))
}

// patienceUntil is Patience for a binary stopped at end (never when !ok).
var patienceUntil = func(end time.Time, ok bool) time.Duration {
	if !ok {
		return unbounded
	}
	left := time.Until(end)
	left -= min(left/10, maxMargin)
	return max(left, 0)
}

// After is a channel that receives once t's Patience, as of the call, has run out: the
// give-up case of a select.
var After = func(t TB) <-chan time.Time {
	return time.After(Patience(t))
}

// Deadline is the instant t's Patience, as of the call, runs out: for I/O deadlines and
// contexts that bound a wait.
var Deadline = func(t TB) time.Time {
	return time.Now().Add(Patience(t))
}

// For polls ok, pausing a millisecond at first and longer each try up to maxPause, until it
// holds (true) or t's patience runs out (false), so that the caller can fail with its own
// evidence.
var For = func(t TB, ok func() bool) bool {
	return pollUntil(Deadline(t), ok)
}

// pollUntil is For, giving up at giveUp.
var pollUntil = func(giveUp time.Time, ok func() bool) bool {
	pause := time.Millisecond
	for !ok() {
		left := time.Until(giveUp)
		if left <= 0 {
			return ok()
		}
		time.Sleep(min(pause, left))
		pause = min(pause*3/2, maxPause)
	}
	return true
}

// Until polls ok like For and, when t's patience runs out first, fails t saying what did not
// happen (a format and its arguments) and how long it waited.
var Until = func(t TB, ok func() bool, format string, args ...any) {
	t.Helper()
	began := time.Now()
	if !For(t, ok) {
		t.Fatalf("after %v: %s", time.Since(began).Round(time.Millisecond), fmt.Sprintf(format, args...))
	}
}
