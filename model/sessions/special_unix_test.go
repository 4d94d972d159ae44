//go:build unix

package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/safefile"
)

// A conversation's lock file, which gets its holder written into it, is refused when it is a
// second name of another file; that file keeps its bytes.
func TestHoldRefusesALockFileLinkedToAnotherFile(t *testing.T) {
	s := openStore(t)
	m := saved(t, s, 1)
	profile := filepath.Join(t.TempDir(), "profile")
	os.WriteFile(profile, []byte("export PATH=/usr/bin\n"), 0o644)
	os.Remove(s.LockPath(m.ID))
	if err := os.Link(profile, s.LockPath(m.ID)); err != nil {
		t.Skip(err)
	}
	if h, err := s.Hold(m.ID); !errors.Is(err, safefile.ErrHardLinked) {
		h.Release()
		t.Fatalf("Hold through a hard link = %v", err)
	}
	if data, _ := os.ReadFile(profile); string(data) != "export PATH=/usr/bin\n" {
		t.Fatalf("the linked file changed: %q", data)
	}
}

// An index or a prompt history that is a FIFO or a link to a device is refused at once, never
// waited on nor read forever.
func TestIndexAndHistoryThatAreNotFilesAreRefused(t *testing.T) {
	s := openStore(t)
	if err := syscall.Mkfifo(filepath.Join(s.Dir(), indexName), 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := s.List(); !errors.Is(err, safefile.ErrNotRegular) {
		t.Fatalf("List with a FIFO for an index = %v", err)
	}
	p := &Prompts{path: filepath.Join(t.TempDir(), "prompts.jsonl"), lockWait: LockWait}
	os.Symlink("/dev/zero", p.path)
	if _, err := p.Load(); !errors.Is(err, safefile.ErrNotRegular) {
		t.Fatalf("Load of a history linked to /dev/zero = %v", err)
	}
}

// A change to the index waits for another process's lock only so long (injected here), says
// once that it waits, then gives up with ErrLocked and changes nothing; once the lock is let
// go, the change goes through.
func TestAnIndexLockHeldElsewhereIsWaitedForWithinItsBound(t *testing.T) {
	s := openStore(t)
	m := saved(t, s, 1)
	other, err := openLockFile(filepath.Join(s.Dir(), lockName)) // another open: another process to flock
	if err != nil {
		t.Fatal(err)
	}
	if taken, err := tryLock(other); !taken || err != nil {
		t.Fatalf("taking the lock: %v %v", taken, err)
	}
	var said strings.Builder
	s.Notices, s.lockWait = &said, 100*time.Millisecond
	_, err = s.Rename(m.ID, "a new title")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "the sessions index: another process held its lock for 100ms") {
		t.Fatalf("a change under a held lock: %v", err)
	}
	if got := said.String(); got != "phasechat: waiting for the sessions index: another process holds its lock (giving up after 100ms)\n" {
		t.Errorf("the wait was said as %q", got)
	}
	if after, _ := s.Find(m.ID); after.Title != m.Title {
		t.Errorf("the title changed to %q", after.Title)
	}
	other.Close()
	if _, err := s.Rename(m.ID, "a new title"); err != nil {
		t.Fatalf("once the lock is free: %v", err)
	}
}

// Search skips a log it cannot read (here a FIFO) and says which, finding the others.
func TestSearchSaysWhichLogItCouldNotRead(t *testing.T) {
	s := openStore(t)
	bad, good := saved(t, s, 1), saved(t, s, 1)
	os.Remove(s.LogPath(bad.ID))
	if err := syscall.Mkfifo(s.LogPath(bad.ID), 0o600); err != nil {
		t.Skip(err)
	}
	var said strings.Builder
	s.Notices = &said
	hits, err := s.Search("question")
	if err != nil || len(hits) != 1 || hits[0].Meta.ID != good.ID {
		t.Fatalf("Search = %+v, %v", hits, err)
	}
	if want := "phasechat: session " + bad.ID + " not searched: cannot open the session log: " + s.LogPath(bad.ID) + " is a named pipe (FIFO)"; !strings.HasPrefix(said.String(), want) {
		t.Errorf("said %q, want it to start %q", said.String(), want)
	}
}
