//go:build unix

package safefile

import (
	"io/fs"
	"syscall"
)

// readFlags make an open return at once on a FIFO instead of waiting for a writer.
const readFlags = syscall.O_NONBLOCK | syscall.O_CLOEXEC

// writeFlags add to readFlags a refusal to follow a symbolic link at the path.
const writeFlags = readFlags | syscall.O_NOFOLLOW

// links is the number of names the file has.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
