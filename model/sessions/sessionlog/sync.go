//go:build !linux

package sessionlog

// datasync puts what was written to f on disk (fsync: the system has no fdatasync to call).
func datasync(f logFile) error { return f.Sync() }
