//go:build unix

package sessions

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/phasechat/phasechat/internal/safefile"
)

// openLockFile opens (creating, 0600) a lock file the way safefile writes: never through a link,
// never a special file or one with other hard links (a holder is written into it).
func openLockFile(path string) (*os.File, error) {
	return safefile.OpenWrite(path)
}

// tryLock takes an exclusive flock on f without waiting; false: another open file holds it.
func tryLock(f *os.File) (bool, error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case unix.EWOULDBLOCK:
			return false, nil
		case unix.EINTR:
			continue
		}
		return false, err
	}
}

// dropLock does nothing: closing f drops its flock.
func dropLock(*os.File) {}
