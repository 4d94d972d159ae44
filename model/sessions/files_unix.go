//go:build unix

package sessions

import (
	"os"

	"golang.org/x/sys/unix"
)

// openNoFollow opens path for reading, failing on a symbolic link and never waiting on a
// FIFO put in a kept file's place.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
}
