// Package sessionlog keeps a chat session as JSON lines: one record per final message (user,
// assistant with its tool calls, tool result) and one per request's usage, in the order they
// became final. The same turn gives the same records whether it was streamed or not. A log can
// be read back to resume the conversation (see Read).
package sessionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream"
)

// Record is one line of the log. Time is when the record was queued; logs written before
// records carried it have none.
type Record struct {
	Type    string          `json:"type"` // "session", "message" or "usage"
	Time    *time.Time      `json:"time,omitempty"`
	Session *Header         `json:"session,omitempty"`
	Message *stream.Message `json:"message,omitempty"`
	Usage   *stream.Usage   `json:"usage,omitempty"`
}

// Header says what a conversation was held with. It opens a log and is written again each
// time the conversation is resumed. Endpoint is the API root without credentials; the key is
// never recorded.
type Header struct {
	Model    string `json:"model,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
	System   string `json:"system,omitempty"`
}

// Writer appends records to a log file from a goroutine of its own, in the order Add was
// called. Add only queues, so it may be called from a Bubble Tea Update.
type Writer struct {
	f    *os.File
	mu   sync.Mutex
	todo [][]byte
	wake chan struct{}
	done chan struct{}
	err  error
	shut bool // Close was called: Add drops records, Close returns the first error again
}

// Create opens (or creates) the log at path for appending, with mode 0600 — the log holds the
// conversation, so only its owner may read it. A log whose last line is unterminated (the
// program stopped mid-write) is mended first, so that appending keeps it readable: a complete
// record there gets its newline; a cut-off one, which Read skips anyway, is cut away.
func Create(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the session log: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot restrict the session log to its owner: %w", err)
	}
	if err := mendTail(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot mend the cut-off end of the session log: %w", err)
	}
	w := &Writer{f: f, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop()
	return w, nil
}

// Add queues one engine record, stamped with the time now.
func (w *Writer) Add(r chat.Record) {
	rec := Record{Type: "message", Message: r.Message}
	if r.Message == nil {
		rec = Record{Type: "usage", Usage: r.Usage}
	}
	w.queue(rec)
}

// Head queues a header record, stamped with the time now.
func (w *Writer) Head(h Header) { w.queue(Record{Type: "session", Session: &h}) }

func (w *Writer) queue(rec Record) {
	now := time.Now().UTC()
	rec.Time = &now
	line, err := json.Marshal(rec)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shut {
		return
	}
	if err != nil {
		w.err = fmt.Errorf("cannot encode a log record: %w", err)
		return
	}
	w.todo = append(w.todo, append(line, '\n'))
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Close writes what is queued and closes the file. It returns the first error the log met.
// Calling it again only returns that error; records added after Close are dropped.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.shut {
		defer w.mu.Unlock()
		return w.err
	}
	w.shut = true
	close(w.wake)
	w.mu.Unlock()
	<-w.done
	err := w.f.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil && w.err == nil {
		w.err = err
	}
	return w.err
}

func (w *Writer) loop() {
	defer close(w.done)
	for range w.wake {
		w.flush()
	}
	w.flush()
}

func (w *Writer) flush() {
	w.mu.Lock()
	todo := w.todo
	w.todo = nil
	w.mu.Unlock()
	for _, line := range todo {
		if _, err := w.f.Write(line); err != nil {
			w.mu.Lock()
			if w.err == nil {
				w.err = fmt.Errorf("cannot write the session log: %w", err)
			}
			w.mu.Unlock()
			return
		}
	}
}

// mendTail makes f end in a newline or be empty: an unterminated last line that holds a whole
// record is terminated, anything else after the last newline is truncated.
func mendTail(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	start := size // the offset just after the last newline
	buf := make([]byte, 4096)
	for start > 0 {
		n := min(int64(len(buf)), start)
		if _, err := f.ReadAt(buf[:n], start-n); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			start = start - n + int64(i) + 1
			break
		}
		start -= n
	}
	if start == size {
		return nil
	}
	tail := make([]byte, size-start)
	if _, err := f.ReadAt(tail, start); err != nil {
		return err
	}
	var rec Record
	if json.Unmarshal(tail, &rec) == nil && rec.valid() {
		_, err = f.Write([]byte{'\n'})
		return err
	}
	return f.Truncate(start)
}
