package sessionlog

import (
	"fmt"

	"github.com/phasechat/phasechat/internal/format"
)

// queuedStep is what the writer's goroutine does next in its order: write line, after keep
// (when not nil) has run, durable when it is to be on disk once written; or, with then set and
// no line, run then (see Then).
type queuedStep struct {
	line    []byte
	kind    lineKind
	keep    func() error
	durable bool
	then    func()
}

// Then has f run on the writer's goroutine once every record added before it is written, and
// on disk if one of them must be (a message or a compaction), and before any record added
// after it is written: f may tell others of what the log holds. While writing fails, f waits
// with those records; Then on a writer closed or stopped does nothing.
func (w *Writer) Then(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut || w.stopped {
		return
	}
	w.endPart()
	w.todo = append(w.todo, queuedStep{then: f})
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// stop ends the writing of a log Later could not open: what is queued is dropped, and so is
// what is added from now on; err is the writer's error, and the function given to OnError is
// told.
func (w *Writer) stop(err error) {
	w.mu.Lock()
	w.stopped = true
	w.todo = nil
	w.dropPart()
	if w.err == nil {
		w.err = err
	}
	w.progress.Broadcast()
	report := w.onError
	w.mu.Unlock()
	if report != nil {
		report(err)
	}
}

// loop is the writer's goroutine: it writes what is queued each time it is woken, and once
// more when Close ends it.
func (w *Writer) loop() {
	defer close(w.done)
	for range w.wake {
		w.flush()
	}
	w.flush()
}

// flush writes what is queued, running each function Then queued in its place, once the
// lines before it are written and, when due (a message, or Sync), on disk. On a failed write
// the line written in part is cut away, and it and the rest stay queued ahead of anything
// added meanwhile.
func (w *Writer) flush() {
	w.mu.Lock()
	todo := w.todo
	w.todo = nil
	idle := len(todo) == 0 && w.syncTo <= w.synced
	w.mu.Unlock()
	if idle {
		return
	}
	at, written := 0, 0 // at: the place in todo reached; written: lines not counted yet
	due := false        // a line written and not counted is due to be synced
	var werr error
	for at < len(todo) {
		p := &todo[at]
		if p.then != nil {
			// a durable line written in an earlier pass whose sync failed is synced here too
			werr = w.wrote(written, due, syncDurable)
			if written, due = 0, false; werr != nil {
				break
			}
			p.then()
			at++
			continue
		}
		if w.f == nil {
			if err := w.openLater(); err != nil {
				w.stop(err)
				return
			}
		}
		if p.keep != nil {
			w.kept(p.keep())
			p.keep = nil // once: a line retried after a failed write does not keep again
		}
		if werr = w.writeLine(p.line); werr != nil {
			break
		}
		if w.folds {
			w.lines = append(w.lines, writtenLine{len(p.line), p.kind})
			w.wroteText = w.wroteText || p.kind == lineLiveText
		}
		written++
		due = due || p.durable
		at++
	}
	when := syncAsked
	if werr != nil {
		when = noSync
	}
	if err := w.wrote(written, due, when); werr == nil {
		werr = err
	}
	w.mu.Lock()
	report := w.onError
	var told error
	switch {
	case werr != nil:
		w.todo = append(todo[at:len(todo):len(todo)], w.todo...)
		told = fmt.Errorf("cannot write the session log (%s, tried again with the next write): %w", w.heldWords(), werr)
		if w.err == nil {
			w.err = told
		}
		w.failing = true
	case w.failing:
		w.failing = false
		w.err = nil // everything is in the log after all
	default:
		report = nil
	}
	w.mu.Unlock()
	if report != nil {
		report(told)
	}
}

// syncWhen says when wrote syncs the log to disk.
type syncWhen int

const (
	noSync      syncWhen = iota
	syncDurable          // if a durable line written is not on disk yet
	syncAsked            // if syncTo asks for lines not on disk yet
)

// wrote counts n more lines written, durable when one of them is to be on disk, then syncs the
// log to disk as when says: every line written is then on disk.
func (w *Writer) wrote(n int, durable bool, when syncWhen) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	defer w.progress.Broadcast()
	w.written += int64(n)
	if durable {
		w.durableTo = w.written
	}
	if w.f == nil || w.written <= w.synced || when == noSync ||
		when == syncDurable && w.durableTo <= w.synced || when == syncAsked && w.syncTo <= w.synced {
		return nil
	}
	to := w.written
	w.mu.Unlock()
	err := datasync(w.f)
	w.mu.Lock()
	if err == nil {
		w.synced = to
	}
	return err
}

// heldWords says how many records are not safe on disk yet: those waiting to be written, and
// those written up to a durable one whose sync failed. mu is held.
func (w *Writer) heldWords() string {
	n := waiting(w.todo)
	words := fmt.Sprintf("%d %s held", n, format.Plural(n, "record", "records"))
	if unsynced := w.durableTo - w.synced; unsynced > 0 {
		words += fmt.Sprintf(", %d written and not yet safe on disk", unsynced)
	}
	return words
}

// waiting is how many of todo are lines to write.
func waiting(todo []queuedStep) int {
	n := 0
	for _, p := range todo {
		if p.then == nil {
			n++
		}
	}
	return n
}

// kept reports an error of keeping a record's files to the function given to OnError.
func (w *Writer) kept(err error) {
	if err == nil {
		return
	}
	w.mu.Lock()
	report := w.onError
	w.mu.Unlock()
	if report != nil {
		report(err)
	}
}

// writeLine appends one line whole or not at all: bytes of a failed write are truncated away.
func (w *Writer) writeLine(line []byte) error {
	fi, err := w.f.Stat()
	if err != nil {
		return err
	}
	if _, err := w.f.Write(line); err != nil {
		w.f.Truncate(fi.Size())
		return err
	}
	return nil
}
