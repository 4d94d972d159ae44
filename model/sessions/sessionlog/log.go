// Package sessionlog keeps a chat session as JSON lines: one record per final message (user,
// assistant with its tool calls, tool result) and one per request's usage, in the order they
// became final. The same turn gives the same records whether it was streamed or not. A log can
// be read back to resume the conversation (see Read).
package sessionlog

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// Record is one line of the log. Time is when the record was queued; logs written before
// records carried it have none. A message record holds the message's parts in order and how
// it ended (see recordLine); reading one written before parts gives the same message.
type Record struct {
	Type    string // "session", "message", "usage", "live" or "compaction"
	Time    *time.Time
	Session *Header
	Message *wire.Message
	Usage   *wire.Usage
	// Live is a step of a request in flight (see chat.Live); the request's final assistant
	// message supersedes its live records.
	Live *liveRecord
	// Compaction is a summary requests send from here on in place of the turns it stands for.
	Compaction *chat.Compaction
}

// Header says what a conversation was held with. It opens a log and is written again each
// time the conversation is resumed. Endpoint is the API root without credentials; the key is
// never recorded.
//
// A header record later in the log says what changed from there on: one with only Model is a
// switch to that model; one with New set begins another conversation (a log kept across
// /new), and the records before it are the previous conversation's.
type Header struct {
	Model    string `json:"model,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
	System   string `json:"system,omitempty"`
	New      bool   `json:"new,omitempty"`
	Parent   string `json:"parent,omitempty"` // the session this one was forked from
	// OneShot, on the first header, marks the conversation a one-shot run's (-p): the store
	// leaves it out of its listings unless asked for every session.
	OneShot bool `json:"oneshot,omitempty"`
}

// Writer appends records to a log file from a goroutine of its own, in the order Add was
// called; it is the only queue of what goes to the log, and what runs in its order (Then,
// KeepFilesWith, Later's opening). Add only queues, so it may be called from a Bubble Tea
// Update.
//
// A write that fails (a full disk) loses nothing: the records not written stay queued, in
// order, any partial line is cut away again, and the next Add (or Close) retries them. Each
// failure and the recovery after it are reported to the function given to OnError at once.
type Writer struct {
	// f is the log; nil until the goroutine opens the log of a writer Later made. It, before,
	// start, lines and wroteText are the goroutine's own (and Close's once it has ended).
	f       logFile
	mu      sync.Mutex
	todo    []queuedStep
	wake    chan struct{}
	done    chan struct{}
	err     error
	failing bool // the last write failed; the next success is reported as a recovery
	shut    bool // Close was called: Add drops records, Close returns the first error again
	secrets *secret.Set
	onError func(err error)
	keep    func(chat.Record) error // see KeepFilesWith
	// before runs just before a log Later made is opened; stopped is true once that or the
	// opening failed: the writer then writes nothing and drops what is added (see Later).
	before  func() error
	stopped bool

	// path is the log's name, start its size when opened; lines are the lines written since,
	// wroteText whether any was streamed text: what Close folds (see fold), if folds.
	path      string
	folds     bool
	start     int64
	lines     []writtenLine
	wroteText bool

	part    streamedPart // streamed text not queued yet
	partDue *time.Timer  // queues the part when it has waited partEvery; nil when none waits
	queued  int64        // lines queued since the writer was made
	written int64        // lines written since the writer was made
	syncTo  int64        // the lines to be synced to disk; synced is where they are
	synced  int64
	// durableTo is the lines written up to the last that is to be on disk once written (a
	// message), counted with those written in the same pass: a Then waits for them to be synced,
	// even when that sync failed in a pass before.
	durableTo int64
	progress  *sync.Cond // on mu: written or synced moved, or writing failed or stopped
}

// logFile is the file a Writer appends to (an *os.File opened with O_APPEND).
type logFile interface {
	io.WriteCloser
	Stat() (fs.FileInfo, error)
	Sync() error
	Truncate(size int64) error
}

// SetSecrets makes every record written from now on hide the secrets of s.
func (w *Writer) SetSecrets(s *secret.Set) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.secrets = s
}

// OnError sets f to be told, from the writer's goroutine, each time writing fails (err says
// why and how many records wait) and, with a nil err, when the records waiting were written
// after all. f must not block.
func (w *Writer) OnError(f func(err error)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onError = f
}

// KeepFilesWith has keep run, from the writer's goroutine, for each message record with
// attachments added from now on, just before its line is written: whatever keep writes (the
// attachments' bytes) is on disk before the line naming it, and the records added after it are
// written after it, in order. An error keep returns is reported to the function given to
// OnError; the line is written all the same.
func (w *Writer) KeepFilesWith(keep func(chat.Record) error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.keep = keep
}

// Add queues one engine record, to be stamped with its At, else the time it is queued. The
// streamed text of a reply (chat.LiveText, chat.LiveReasoning) is gathered and queued as one
// record when it has waited partEvery, when the other kind of text comes, or with the next
// record of any other kind — except the reply's final message, which holds that text and
// drops it; a message record is synced to disk once written.
func (w *Writer) Add(r chat.Record) {
	rec := Record{Type: "message", Message: r.Message}
	var keep func() error
	switch {
	case r.Live != nil && r.Live.What.Streamed():
		w.addText(r.Live.What, r.Live.Text)
		return
	case r.Live != nil:
		rec = Record{Type: "live", Live: liveRecordOf(r.Live)}
	case r.Message != nil:
		w.mu.Lock()
		set, hook := w.secrets, w.keep
		w.mu.Unlock()
		if hook != nil && len(r.Message.Attachments) > 0 {
			keep = func() error { return hook(r) }
		}
		if !set.Empty() {
			// Redacted here as a message, not only as the line's bytes (see queue), so that
			// a secret split across two of its parts is hidden too.
			m := wire.RedactMessage(set, *r.Message)
			rec.Message = &m
		}
	case r.Usage != nil:
		rec = Record{Type: "usage", Usage: r.Usage}
	case r.Model != "":
		rec = Record{Type: "session", Session: &Header{Model: r.Model}}
	case r.Compaction != nil:
		rec = compactionRecord(*r.Compaction)
	default:
		return
	}
	if !r.At.IsZero() {
		at := r.At.UTC()
		rec.Time = &at
	}
	w.queue(rec, keep)
}

// Head queues a header record, stamped with the time now.
func (w *Writer) Head(h Header) { w.queue(Record{Type: "session", Session: &h}, nil) }

// queue queues rec, to be written after keep (when not nil) has run.
func (w *Writer) queue(rec Record, keep func() error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut || w.stopped {
		return
	}
	if rec.Message != nil && rec.Message.Role == "assistant" {
		w.dropPart() // the final reply supersedes its streamed text
	} else {
		w.endPart()
	}
	w.enqueue(rec, rec.Message != nil || rec.Compaction != nil, keep)
}

// enqueue queues rec, stamped with the time now unless it has a time, to be written after keep
// (when not nil) has run, and wakes the writing goroutine; durable asks for the log to be
// synced to disk once rec is written. mu is held.
func (w *Writer) enqueue(rec Record, durable bool, keep func() error) {
	if w.stopped {
		return
	}
	if rec.Time == nil {
		now := time.Now().UTC()
		rec.Time = &now
	}
	line, err := appendRecord(nil, rec)
	if err != nil {
		w.err = fmt.Errorf("cannot encode a log record: %w", err)
		return
	}
	w.todo = append(w.todo, queuedStep{line: seal(w.secrets.RedactBytes(line)), kind: kindOf(&rec), keep: keep, durable: durable})
	w.queued++
	if durable {
		w.syncTo = w.queued
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Close writes what is queued and closes the file. It returns the first error the log met.
// Calling it again only returns that error; records added after Close are dropped.
//
// A log opened by Later and closed cleanly is folded: the live records this writer wrote that a
// reader passes over (those of a request its final reply supersedes) are taken out, the log
// replaced whole by its folded copy, so that it reads the same at half the size. A crash leaves them,
// and resuming reads them.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.shut {
		defer w.mu.Unlock()
		return w.err
	}
	w.endPart()
	w.part = streamedPart{} // a closed log keeps no buffer for streamed text
	w.syncTo = w.queued
	w.shut = true
	close(w.wake)
	w.mu.Unlock()
	<-w.done
	folded := w.fold()
	var err error
	if w.f != nil { // nil: a log Later made that was never opened
		err = w.f.Close()
	}
	if folded != "" {
		if err == nil {
			replaceWith(folded, w.path) // on failure the log stays as written, and reads the same
		}
		os.Remove(folded) // gone after the rename
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil && w.err == nil {
		w.err = err
	}
	return w.err
}
