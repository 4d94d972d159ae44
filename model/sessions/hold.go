package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/phasechat/phasechat/internal/safefile"
)

// Holder is who holds a conversation: what the holding process wrote into its lock file.
type Holder struct {
	PID      int       `json:"pid"`
	Since    time.Time `json:"since"`
	Terminal string    `json:"terminal,omitempty"` // e.g. /dev/pts/3; empty when unknown or none
}

// String words the holder for a message: "pid 4242, since 18:02, on /dev/pts/3".
func (h Holder) String() string {
	if h.PID == 0 {
		return "another phasechat process"
	}
	s := fmt.Sprintf("pid %d", h.PID)
	if !h.Since.IsZero() {
		s += ", since " + h.Since.Local().Format("15:04:05")
		if h.Since.Local().YearDay() != time.Now().YearDay() {
			s += " on " + h.Since.Local().Format("2 Jan")
		}
	}
	if h.Terminal != "" {
		s += ", on " + h.Terminal
	}
	return s
}

// HeldError is the error of opening a conversation another process holds.
type HeldError struct {
	ID     string
	Holder Holder
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("session %s is open in another phasechat (%s): one process at a time writes a conversation; --fork continues it in a copy",
		e.ID, e.Holder)
}

// ErrHeld is what every *HeldError is (errors.Is).
var ErrHeld = errors.New("the session is open in another process")

func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Hold is this process's hold on one conversation: an exclusive flock on the file <id>.lock
// beside its log, taken without waiting and kept until Release. The kernel drops it when the
// process ends however it ends, so a crash never leaves a conversation held. The lock is per
// open file: a second Hold in the same process is refused like another process's.
type Hold struct {
	file *os.File
}

// LockPath is the lock file of session id.
func (s *Store) LockPath(id string) string { return filepath.Join(s.dir, id+".lock") }

// Hold takes the conversation id for this process. When another holds it the error is a
// *HeldError naming the holder.
func (s *Store) Hold(id string) (*Hold, error) {
	if !validID(id) {
		return nil, notFound(fmt.Sprintf("no session %q", id))
	}
	path := s.LockPath(id)
	f, err := openLockFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock of session %s: %w", id, err)
	}
	taken, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock session %s: %w", id, err)
	}
	if !taken {
		var h Holder
		data, _ := safefile.ReadFile(path, 4<<10)
		json.Unmarshal(data, &h) // a holder that has not written yet is "another process"
		f.Close()
		return nil, &HeldError{ID: id, Holder: h}
	}
	me, _ := json.Marshal(Holder{PID: os.Getpid(), Since: time.Now().UTC(), Terminal: terminalName()})
	if err := f.Truncate(0); err == nil {
		f.WriteAt(append(me, '\n'), 0)
	}
	return &Hold{file: f}, nil
}

// Release lets the conversation go; it does nothing on nil or a second time. The lock file
// stays (removing it would let a third process lock a file no longer at the path).
func (h *Hold) Release() {
	if h == nil || h.file == nil {
		return
	}
	h.file.Truncate(0)
	dropLock(h.file)
	h.file.Close() // closing the last descriptor of the open file drops the flock
	h.file = nil
}
