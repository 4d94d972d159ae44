package sessionlog

import (
	"io"
	"os"
	"path/filepath"
)

// writtenLine is a line this writer wrote: its length and kind.
type writtenLine struct {
	size int
	kind lineKind
}

// passedOver is, for each of lines (the lines a writer wrote, in order), whether the reader
// passes over it: a live record of a request that a final reply, a later request or a new
// conversation supersedes. Live records before the first line here belong to a request the
// same rule settles, so dropping what it marks never changes what the log reads as.
func passedOver(lines []writtenLine) (drop []bool, any bool) {
	drop = make([]bool, len(lines))
	var flight []int // the live lines of the request in flight
	settle := func(passed bool) {
		for _, i := range flight {
			drop[i] = passed
			any = any || passed
		}
		flight = flight[:0]
	}
	for i, l := range lines {
		switch l.kind {
		case lineBegin:
			settle(true)
			flight = append(flight, i)
		case lineLive, lineLiveText:
			flight = append(flight, i)
		case lineFinal, lineNew:
			settle(true)
		case lineUser, lineCompaction:
			settle(false)
		}
	}
	return drop, any
}

// fold writes, beside the log, a copy of it without the live records the reader passes over
// among the lines this writer wrote, and returns the copy's name to replace the log with; ""
// when the writer does not fold (see Append), there is nothing worth folding (no streamed text
// among them) or the log is not as this writer left it. The writer's goroutine has ended.
func (w *Writer) fold() string {
	src, ok := w.f.(*os.File)
	if !ok || !w.folds || w.path == "" || w.err != nil || !w.wroteText {
		return ""
	}
	drop, any := passedOver(w.lines)
	if !any {
		return ""
	}
	end := w.start
	for _, l := range w.lines {
		end += int64(l.size)
	}
	fi, err := src.Stat()
	if err != nil || fi.Size() != end {
		return ""
	}
	tmp, err := os.CreateTemp(filepath.Dir(w.path), "."+filepath.Base(w.path)+".fold-*")
	if err != nil {
		return ""
	}
	name := tmp.Name()
	if !writeFolded(tmp, src, w.start, w.lines, drop, fi.Mode().Perm()) {
		os.Remove(name)
		return ""
	}
	return name
}

// writeFolded copies src's first start bytes into tmp, then the lines after them that drop
// does not mark, and puts tmp on disk with mode perm. It closes tmp.
func writeFolded(tmp, src *os.File, start int64, lines []writtenLine, drop []bool, perm os.FileMode) bool {
	defer tmp.Close()
	if tmp.Chmod(perm) != nil {
		return false
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return false
	}
	// A limited *os.File lets the system copy the bytes itself (copy_file_range on Linux).
	if n, err := io.Copy(tmp, &io.LimitedReader{R: src, N: start}); err != nil || n != start {
		return false
	}
	// Each run of kept lines is copied straight from the file: nothing of the log is held in
	// memory however long the conversation.
	at, run := start, int64(0)
	flush := func() bool {
		if run == 0 {
			return true
		}
		n, err := io.Copy(tmp, io.NewSectionReader(src, at-run, run))
		ok := err == nil && n == run
		run = 0
		return ok
	}
	for i, l := range lines {
		if drop[i] {
			if !flush() {
				return false
			}
		} else {
			run += int64(l.size)
		}
		at += int64(l.size)
	}
	if !flush() {
		return false
	}
	return datasync(tmp) == nil && tmp.Close() == nil
}

// replaceWith puts the file tmp in path's place and syncs the folder: the log is the one
// before or the folded one, whatever happens.
func replaceWith(tmp, path string) {
	if os.Rename(tmp, path) != nil {
		return
	}
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		dir.Sync()
		dir.Close()
	}
}
