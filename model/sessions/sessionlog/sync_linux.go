package sessionlog

import "syscall"

// datasync puts what was written to f on disk: its data, and the metadata needed to read it
// back (fdatasync).
func datasync(f logFile) error {
	if d, ok := f.(interface{ Fd() uintptr }); ok {
		return syscall.Fdatasync(int(d.Fd()))
	}
	return f.Sync()
}
