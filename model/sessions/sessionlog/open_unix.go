//go:build unix

package sessionlog

import "syscall"

// noFollow makes an open fail on a symbolic link, and not wait on a FIFO.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
