//go:build unix

package tui

import (
	"os"

	"golang.org/x/sys/unix"
)

// jobControl reports whether a stop can be taken back: the parent is a shell of this session
// in another process group, whose fg continues the program. Otherwise (a terminal or tmux
// running the program itself) the process group is orphaned, the kernel drops SIGTSTP, and a
// suspend would wait for a SIGCONT that never comes.
func jobControl() bool {
	parent := os.Getppid()
	sid, err := unix.Getsid(0)
	if err != nil {
		return false
	}
	parentSid, err := unix.Getsid(parent)
	if err != nil {
		return false
	}
	parentGroup, err := unix.Getpgid(parent)
	return err == nil && parentSid == sid && parentGroup != unix.Getpgrp()
}
