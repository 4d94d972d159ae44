//go:build !unix

package sessions

import "os"

// openNoFollow opens path for reading; the caller refuses anything but a regular file.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }
