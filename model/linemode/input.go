package linemode

import (
	"errors"
	"io"
	"os"
	"time"
)

// inputMode is how the terminal hands over input.
type inputMode uint32

const (
	lineInput inputMode = iota // canonical: whole lines, echoed, edited by the terminal
	keyInput                   // single keys, not echoed
)

// chunk is what one read returned.
type chunk struct {
	data []byte
	mode inputMode // the terminal's mode when the read returned (lineInput for a pipe)
	end  bool      // no more input: end of file (Ctrl+D on an empty line) or a read error
	err  error     // the read error, when it was not end of file
}

// reader reads f on its own goroutine and hands each read over on chunks, until the end of
// the input or until stop is closed. A read in progress cannot be interrupted; close stops
// the goroutine at its next read, and also sets a read deadline so that a file with deadline
// support (a pipe or a pty opened by Go) returns at once.
type reader struct {
	f      *os.File
	chunks chan chunk
	stop   chan struct{}
	done   chan struct{}
}

// startReader starts reading f. mode reports the terminal's mode; nil means lineInput.
func startReader(f *os.File, mode func() inputMode) *reader {
	r := &reader{f: f, chunks: make(chan chunk), stop: make(chan struct{}), done: make(chan struct{})}
	go r.run(mode)
	return r
}

func (r *reader) run(mode func() inputMode) {
	defer close(r.done)
	buf := make([]byte, 4096)
	for {
		n, err := r.f.Read(buf)
		c := chunk{data: append([]byte(nil), buf[:n]...)}
		if mode != nil {
			c.mode = mode()
		}
		if err != nil && n == 0 {
			c.end = true
			if !errors.Is(err, io.EOF) {
				c.err = err
			}
		}
		if n == 0 && !c.end {
			continue
		}
		select {
		case r.chunks <- c:
		case <-r.stop:
			return
		}
		if c.end {
			return
		}
	}
}

// close stops the reader. It does not wait for a read that is blocked.
func (r *reader) close() {
	close(r.stop)
	_ = r.f.SetReadDeadline(time.Now())
}
