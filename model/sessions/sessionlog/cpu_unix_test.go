//go:build unix

package sessionlog

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU the process has used so far (user and system): on a loaded machine a
// truer figure than the wall clock.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
