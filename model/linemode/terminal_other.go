//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package linemode

import "os"

// terminal is not supported on this system: input is always read as lines, as from a pipe.
type terminal struct{}

func openTerminal(*os.File) *terminal { return nil }
func (*terminal) set(inputMode) error { return nil }
func (*terminal) mode() inputMode     { return lineInput }
func (*terminal) reapply() error      { return nil }
func (*terminal) restore() error      { return nil }

func pollableInput(f *os.File) (*os.File, bool) { return f, false }

// resumeSignal: no job control here.
var resumeSignal os.Signal
