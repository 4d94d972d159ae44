package sessions

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/phasechat/phasechat/internal/format"
)

// LockWait bounds how long a change to the index or the prompt history waits while another
// process holds its lock (a phasechat stopped with Ctrl+Z while saving holds it until it goes
// on); past it the change is given up with an error matching ErrLocked.
const LockWait = 10 * time.Second

// ErrLocked is the cause of a change given up because another process held the lock too long.
var ErrLocked = errors.New("locked by another process")

// lock takes the lock file at path (see openLockFile), trying again while another process
// holds it for at most wait, and returns its release. A wait longer than a tenth of that is
// said once on said (when not nil), naming what, before it goes on.
func lock(path, what string, wait time.Duration, said io.Writer) (func(), error) {
	f, err := openLockFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock of %s: %w", what, err)
	}
	start := time.Now()
	pause, told := time.Millisecond, false
	for {
		taken, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", what, err)
		}
		if taken {
			return func() {
				dropLock(f)
				f.Close()
			}, nil
		}
		waited := time.Since(start)
		if waited >= wait {
			f.Close()
			return nil, fmt.Errorf("%s: another process held its lock for %s; gave up, nothing was changed: %w", what, format.WrittenDuration(wait), ErrLocked)
		}
		if !told && said != nil && waited >= wait/10 {
			told = true
			fmt.Fprintf(said, "phasechat: waiting for %s: another process holds its lock (giving up after %s)\n", what, format.WrittenDuration(wait))
		}
		time.Sleep(min(pause, wait-waited))
		pause = min(2*pause, 25*time.Millisecond) // short: a waiter that sleeps long loses the lock to busier ones
	}
}
