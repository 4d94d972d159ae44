package sessionlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// ErrNotALog is the cause of Create's refusal of a file that is not a session log.
var ErrNotALog = errors.New("sessionlog: not a session log")

// Create opens the log at path for appending, or creates it with mode 0600 (the log holds the
// conversation, so only its owner may read it). It never follows a symbolic link at path, and
// refuses anything but a regular file that is empty or starts like a session log: a log must
// never land in a file it was not meant for (a shell profile, someone's notes). The mode of a
// file it did not create is left as it is. A log whose last line is unterminated (the program
// stopped mid-write) is mended first, so that appending keeps it readable: a complete record
// there gets its newline; a cut-off one, which Read skips anyway, is cut away.
func Create(path string) (*Writer, error) {
	f, err := openLog(path)
	if err != nil {
		return nil, err
	}
	if err := mendTail(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot mend the cut-off end of the session log: %w", err)
	}
	w := &Writer{f: f, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go w.loop()
	return w, nil
}

// openLog opens an existing log (checked) or creates a new one, without following a link.
func openLog(path string) (*os.File, error) {
	for range 3 { // a file created or removed between the two opens: try again
		f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|noFollow, 0)
		if err == nil {
			if err := checkExisting(f, path); err != nil {
				f.Close()
				return nil, err
			}
			return f, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, refusal(path, err)
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL|noFollow, 0o600)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, refusal(path, err)
		}
	}
	return nil, fmt.Errorf("cannot open the session log %s: it keeps appearing and disappearing", path)
}

// refusal explains a failed open; a symbolic link gets words of its own.
func refusal(path string, err error) error {
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("the session log %s is a symbolic link; phasechat does not write through links (give the real path): %w", path, ErrNotALog)
	}
	return fmt.Errorf("cannot open the session log: %w", err)
}

// checkExisting accepts an opened file only if it is a regular file, empty or starting like a
// session log: its first line is (or, cut off, begins) a JSON object with a "type".
func checkExisting(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("cannot open the session log: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("the session log %s is not a regular file (%s); give a file path: %w", path, fi.Mode().Type(), ErrNotALog)
	}
	if fi.Size() == 0 {
		return nil
	}
	head, err := bufio.NewReader(io.NewSectionReader(f, 0, 64<<10)).ReadSlice('\n')
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("cannot read the session log: %w", err)
	}
	if !startsLikeALog(head, err == nil) {
		return fmt.Errorf("%s is not a phasechat session log, so nothing was written to it; give a new file or an existing log: %w", path, ErrNotALog)
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
