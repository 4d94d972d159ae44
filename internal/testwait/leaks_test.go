package testwait

import (
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestNoLeaksWaitsForGoroutinesThatAreEnding(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	ending := make(chan struct{})
	go func() { <-ending }()
	time.AfterFunc(time.Second, func() { close(ending) }) // longer than goleak's own retries
	NoLeaks(t, ignore)
}

func TestNoLeaksFailsOnAGoroutineThatStays(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	stays := make(chan struct{})
	defer close(stays)
	go func() { <-stays }()
	f := &fakeTB{end: time.Now().Add(100 * time.Millisecond), bounded: true}
	NoLeaks(f, ignore)
	if !strings.Contains(f.failed, "found unexpected goroutines") {
		t.Errorf("NoLeaks with a goroutine left running failed with %q", f.failed)
	}
}
