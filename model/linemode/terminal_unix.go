//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package linemode

import (
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// terminal switches an input terminal between line input (canonical mode, echo on: the
// terminal's own line editing, which screen readers follow best) and key input (non-canonical,
// no echo, one byte at a time), and puts back the state it found.
//
// Both modes keep ISIG (Ctrl+C raises SIGINT), OPOST (so "\n" still returns the carriage) and
// ICRNL (Enter reads as '\n'); golang.org/x/term's MakeRaw would clear all three. Methods are
// for the goroutine that owns the session, except mode, which any goroutine may call.
//
// The file descriptor is reached through syscall.RawConn, never os.File.Fd, which would put
// the file into blocking mode and take away its read deadlines.
type terminal struct {
	conn    syscall.RawConn
	orig    unix.Termios
	current atomic.Uint32 // the inputMode in effect
}

// openTerminal returns the terminal f is, with its state saved, or nil when f is not one.
func openTerminal(f *os.File) *terminal {
	if f == nil {
		return nil
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	t := &terminal{conn: conn}
	var orig *unix.Termios
	if err := t.ioctl(func(fd int) (err error) { orig, err = unix.IoctlGetTermios(fd, ioctlGetTermios); return err }); err != nil {
		return nil
	}
	t.orig = *orig
	return t
}

// ioctl runs op on the terminal's file descriptor.
func (t *terminal) ioctl(op func(fd int) error) error {
	var opErr error
	if err := t.conn.Control(func(fd uintptr) { opErr = op(int(fd)) }); err != nil {
		return err
	}
	return opErr
}

// setTermios applies tio with the ioctl request req.
func (t *terminal) setTermios(req uint, tio *unix.Termios) error {
	return t.ioctl(func(fd int) error { return unix.IoctlSetTermios(fd, req, tio) })
}

// termiosFor returns the terminal settings of mode m, derived from the saved state.
func (t *terminal) termiosFor(m inputMode) unix.Termios {
	tio := t.orig
	tio.Iflag |= unix.ICRNL
	tio.Oflag |= unix.OPOST
	tio.Lflag |= unix.ISIG
	if m == lineInput {
		tio.Lflag |= unix.ICANON | unix.ECHO
		return tio
	}
	tio.Lflag &^= unix.ICANON | unix.ECHO | unix.ECHONL
	tio.Cc[unix.VMIN], tio.Cc[unix.VTIME] = 1, 0
	return tio
}

// set switches to mode m. A change of mode first discards input not read yet: keys pressed
// while a reply streamed do not start the next message, and the rest of a pasted block of
// lines is not taken for single keys (a stray y or a would answer an approval question).
func (t *terminal) set(m inputMode) error {
	tio := t.termiosFor(m)
	req := uint(ioctlSetTermios)
	if m != t.mode() {
		req = ioctlSetTermiosFlush
	}
	if err := t.setTermios(req, &tio); err != nil {
		return err
	}
	t.current.Store(uint32(m))
	return nil
}

// mode is the mode in effect.
func (t *terminal) mode() inputMode { return inputMode(t.current.Load()) }

// reapply sets the current mode again, after a job-control stop (the shell may have changed
// the terminal while phasechat was stopped).
func (t *terminal) reapply() error { return t.set(t.mode()) }

// restore puts back the state openTerminal found.
func (t *terminal) restore() error {
	orig := t.orig
	return t.setTermios(ioctlSetTermios, &orig)
}

// pollableInput returns a file to read the terminal f from that Go's poller can wait on, so
// that every read(2) starts afresh in the mode then in effect. A read blocked in the kernel
// keeps the minimum it started with: begun in single-key mode (VMIN 1), it does not return
// for a Ctrl+D typed at the prompt after the switch to line input. When f is not pollable
// (standard input is usually a blocking descriptor) and is the controlling terminal, that is
// /dev/tty opened anew: an open file description of its own, so Go making it non-blocking
// leaves the shell's untouched. Otherwise it is f itself. opened says the caller must close it.
func pollableInput(f *os.File) (in *os.File, opened bool) {
	if f.SetReadDeadline(time.Time{}) == nil {
		return f, false // already pollable
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return f, false
	}
	controlling := false
	conn.Control(func(fd uintptr) {
		_, err := unix.IoctlGetInt(int(fd), unix.TIOCGPGRP) // fails unless f is our controlling terminal
		controlling = err == nil
	})
	if !controlling {
		return f, false
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDONLY, 0)
	if err != nil {
		return f, false
	}
	if tty.SetReadDeadline(time.Time{}) != nil {
		tty.Close()
		return f, false
	}
	return tty, true
}

// resumeSignal is delivered when a stopped job continues.
var resumeSignal os.Signal = syscall.SIGCONT
