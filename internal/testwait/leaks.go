package testwait

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// NoLeaks fails t when goroutines other than those options ignore are still running once t's
// patience has run out: goleak.VerifyNone, whose own retries give up after about half a
// second, less than goroutines that are ending (a closed connection's reader, a stopped
// stream's) may take on a loaded machine.
var NoLeaks = func(t TB, options ...goleak.Option) {
	t.Helper()
	var err error
	if !For(t, func() bool { err = goleak.Find(options...); return err == nil }) {
		t.Fatalf("%v", err)
	}
}

// VerifyTestMain runs m's tests and, when they pass, fails the binary as NoLeaks fails a test:
// goleak.VerifyTestMain with the test binary's patience.
var VerifyTestMain = func(m *testing.M, options ...goleak.Option) {
	code := m.Run()
	if code == 0 {
		var err error
		giveUp := time.Now().Add(patienceUntil(binaryDeadline()))
		if !pollUntil(giveUp, func() bool { err = goleak.Find(options...); return err == nil }) {
			fmt.Fprintf(os.Stderr, "goleak: Errors on successful test run: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
