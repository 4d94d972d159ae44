//go:build unix

package attach

import (
	"os"
	"syscall"
)

// openNoWait opens path for reading without waiting on a FIFO's writer (O_NONBLOCK); the
// caller refuses anything but a regular file before reading.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
}
