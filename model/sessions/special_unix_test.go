//go:build unix

package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/safefile"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
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

// holdIndexLock takes the index's lock on another open file, as another process would, once
// no update holds it; the returned function lets it go.
func holdIndexLock(t *testing.T, s *Store) func() {
	t.Helper()
	other, err := openLockFile(filepath.Join(s.Dir(), lockName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	waitFor(t, "the index's lock free to take", func() bool { // an update may be running
		taken, err := tryLock(other)
		if err != nil {
			t.Fatalf("taking the lock: %v", err)
		}
		return taken
	})
	return func() { other.Close() }
}

// While another process holds the index's lock, the log goes on: finished messages are on
// disk and Sync returns, with the entry behind; once the lock is free the entry catches up.
func TestTheLogGoesOnWhileTheIndexLockIsHeldElsewhere(t *testing.T) {
	s := openStore(t)
	s.lockWait = time.Hour // a lock held for all the test: an update waits for it to go
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
	ss.Add(user("one"))
	ss.Add(assistant("1"))
	entry := func() Meta {
		m, _ := s.Find(ss.ID())
		return m
	}
	waitFor(t, "the first turn in the entry", func() bool { return entry().Turns == 1 })
	release := holdIndexLock(t, s)
	ss.Add(user("two"))
	ss.Add(assistant("2"))
	ss.Add(user("three"))
	waitFor(t, "the messages on disk while the index is locked", func() bool {
		log, err := sessionlog.Read(ss.Path())
		return err == nil && len(log.Messages) == 5
	})
	if err := ss.Sync(); err != nil {
		t.Fatalf("Sync while the index is locked: %v", err)
	}
	if m := entry(); m.Turns != 1 {
		t.Fatalf("the entry counts %d turns under another's lock", m.Turns)
	}
	release()
	waitFor(t, "the entry caught up once the lock is free", func() bool { return entry().Turns == 3 })
	closeSession(t, ss)
	if m := entry(); m.Turns != 3 {
		t.Fatalf("the entry counts %d turns after Close", m.Turns)
	}
}

// An update of the entry given up under another's lock is told at once, once, as trouble of
// the log (the log itself is on disk); the entry catches up at the next update, here Close's,
// which then has nothing to report.
func TestAnEntryGivenUpUnderAnotherLockIsToldOnce(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
	var mu sync.Mutex
	var told []error
	ss.OnError(func(err error) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, err)
	})
	toldSoFar := func() []error {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(told)
	}
	ss.Add(user("one"))
	ss.Add(assistant("1"))
	if err := ss.Sync(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first turn in the entry", func() bool { m, _ := s.Find(ss.ID()); return m.Turns == 1 })
	s.lockWait = time.Millisecond
	release := holdIndexLock(t, s)
	ss.Add(user("two"))
	ss.Add(assistant("2"))
	waitFor(t, "the entry's trouble told", func() bool { return len(toldSoFar()) > 0 })
	ss.Add(user("three"))
	ss.Add(assistant("3"))
	if err := ss.Sync(); err != nil {
		t.Fatal(err)
	}
	release()
	closeSession(t, ss)
	got := toldSoFar()
	if len(got) != 1 || !errors.Is(got[0], ErrLocked) || !strings.Contains(got[0].Error(), "the conversation is saved in its log") {
		t.Fatalf("told %v, want one error saying the log is saved, matching ErrLocked", got)
	}
	if m, _ := s.Find(ss.ID()); m.Turns != 3 {
		t.Fatalf("the entry counts %d turns after Close", m.Turns)
	}
}

// A new session's first entry update rebuilds an index that is not there yet (a fresh data
// folder) from the logs, which may by then hold its first prompt: the title the session was
// given stays, not one made from that prompt.
func TestAGivenTitleOutlivesTheIndexRebuiltForTheFirstEntry(t *testing.T) {
	s := openStore(t)
	s.lockWait = time.Hour
	release := holdIndexLock(t, s) // the first update waits until the log holds the prompt
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}, Title: "given"})
	ss.Add(user("the prompt"))
	if err := ss.Sync(); err != nil {
		t.Fatal(err)
	}
	release()
	closeSession(t, ss)
	if m, err := s.Find(ss.ID()); err != nil || m.Title != "given" {
		t.Fatalf("entry %+v (%v), want the title given", m, err)
	}
}
