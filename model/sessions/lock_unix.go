//go:build unix

package sessions

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/phasechat/phasechat/internal/safefile"
)

// lock takes an exclusive flock on the file at path (created 0600, never through a symlink)
// and returns its release. It blocks while another process holds it.
func lock(path string) (func(), error) {
	f, err := openLockFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the sessions lock %s: %w", path, err)
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock the sessions index: %w", err)
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}

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
