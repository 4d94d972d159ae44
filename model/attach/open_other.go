//go:build !unix

package attach

import "os"

// openNoWait opens path for reading. Systems without FIFOs in the file tree have nothing to
// wait on; the caller refuses anything but a regular file before reading.
func openNoWait(path string) (*os.File, error) { return os.Open(path) }
