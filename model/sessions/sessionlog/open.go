package sessionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/phasechat/phasechat/internal/safefile"
)

// ErrNotALog is the cause of the refusal of a file that is not a session log.
var ErrNotALog = errors.New("sessionlog: not a session log")

// notALog is the refusal of a file that is not a log: its text is what the user is told,
// errors.Is finds ErrNotALog in it, and errors.Unwrap gives the cause.
type notALog struct{ error }

func (e notALog) Is(target error) bool { return target == ErrNotALog }
func (e notALog) Unwrap() error        { return errors.Unwrap(e.error) }

// Later is a writer of the log at path that opens it only when its first line is to be
// written, so that a writer nothing is added to leaves nothing on disk. Just before, the
// writer's goroutine runs before (when not nil), then opens the log for appending, or creates
// it with mode 0600 (the log holds the conversation, so only its owner may read it). It never
// follows a symbolic link at path, and refuses anything but a regular file with no other hard
// link that is empty or starts like a session log: a log must never land in a file it was not
// meant for (a shell profile, someone's notes). The mode of a file it did not create is left
// as it is. A log whose last line is unterminated (the program stopped mid-write) is mended
// first, so that appending keeps it readable: a complete record there gets its newline; a
// cut-off one, which Read skips anyway, is cut away. Closing the writer folds what it wrote
// (see Writer.Close).
//
// An error from before or from opening stops the writer: nothing queued is written, what is
// added after is dropped, the function given to OnError is told, and Sync and Close return
// the error.
func Later(path string, before func() error) *Writer {
	w := newWriter(nil)
	w.path, w.folds, w.before = path, true, before
	return w
}

// Append opens the log at path at once, as Later opens it, for a file the user named: the
// writer only ever appends to it and Close never folds it, so the file keeps its inode (a
// reader that has it open, such as tail -f, sees every line) and its mode.
func Append(path string) (*Writer, error) { return openWriter(path, false) }

// openWriter opens the log at path at once, as Later opens it, folding it on Close if folds.
func openWriter(path string, folds bool) (*Writer, error) {
	f, start, err := openMended(path)
	if err != nil {
		return nil, err
	}
	w := newWriter(f)
	w.path, w.start, w.folds = path, start, folds
	return w, nil
}

// openLater opens the log of a writer Later made, after running its before. It runs on the
// writer's goroutine.
func (w *Writer) openLater() error {
	if w.before != nil {
		if err := w.before(); err != nil {
			return err
		}
	}
	f, start, err := openMended(w.path)
	if err != nil {
		return err
	}
	w.f, w.start = f, start
	return nil
}

// openMended opens the log at path (openLog) and mends its end (mendTail); start is its size
// then.
func openMended(path string) (f *os.File, start int64, err error) {
	if f, err = openLog(path); err != nil {
		return nil, 0, err
	}
	if err := mendTail(f); err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("cannot mend the cut-off end of the session log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("cannot open the session log: %w", err)
	}
	return f, fi.Size(), nil
}

// openLog opens an existing log (checked) or creates a new one: never through a symbolic link,
// never a FIFO, a device or a file with other hard links (safefile's rules for writing).
func openLog(path string) (*os.File, error) {
	f, err := safefile.OpenAppend(path)
	if errors.Is(err, safefile.ErrSymlink) || errors.Is(err, safefile.ErrNotRegular) || errors.Is(err, safefile.ErrHardLinked) {
		return nil, notALog{fmt.Errorf("the session log: %w, so nothing was written to it", err)}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot open the session log: %w", err)
	}
	if err := checkExisting(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkExisting accepts an opened file only if it is empty or starts like a session log: its
// first line is (or, cut off, begins) a JSON object with a "type".
func checkExisting(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("cannot open the session log: %w", err)
	}
	if fi.Size() == 0 {
		return nil
	}
	head, err := bufio.NewReader(io.NewSectionReader(f, 0, 64<<10)).ReadSlice('\n')
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("cannot read the session log: %w", err)
	}
	if !startsLikeALog(head, err == nil) {
		return notALog{fmt.Errorf("%s is not a phasechat session log, so nothing was written to it; give a new file or an existing log", path)}
	}
	return nil
}

// startsLikeALog reports whether head, the first line (whole says it ended in a newline), is a
// record, or the start of one.
func startsLikeALog(head []byte, whole bool) bool {
	var rec struct {
		Type string `json:"type"`
	}
	if whole || json.Valid(head) {
		return json.Unmarshal(head, &rec) == nil && rec.Type != ""
	}
	return strings.HasPrefix(string(head), `{"type":"`)
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
	if parseLine(tail, &rec) {
		_, err = f.Write([]byte{'\n'})
		return err
	}
	return f.Truncate(start)
}
