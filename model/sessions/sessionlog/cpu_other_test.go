//go:build !unix

package sessionlog

import (
	"testing"
	"time"
)

var benchStart = time.Now()

// processCPU is, where the process's CPU clock is not read, the wall clock since the tests
// started.
func processCPU(*testing.B) time.Duration { return time.Since(benchStart) }
