package sessions

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/model/sessions/sessionlog"
)

// saved records a conversation of turns user prompts (each answered) and returns its entry.
func saved(t *testing.T, s *Store, turns int) Meta {
	t.Helper()
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
	for i := range turns {
		ss.Add(user(fmt.Sprintf("question %d", i)))
		ss.Add(assistant("answer"))
	}
	closeSession(t, ss)
	m, err := s.Find(ss.ID())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A conversation is held by one open at a time (the lock is per open file, so two opens in one
// process stand for two processes); the second is told the holder's pid and since when, and
// once the first lets go the conversation can be held again.
func TestASecondHoldIsRefusedWithTheHolder(t *testing.T) {
	s := openStore(t)
	m := saved(t, s, 1)
	first, err := s.Hold(m.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Hold(m.ID)
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrHeld) {
		t.Fatalf("a second hold: %v", err)
	}
	if held.ID != m.ID || held.Holder.PID != os.Getpid() || held.Holder.Since.IsZero() {
		t.Fatalf("the holder is given as %+v", held)
	}
	if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(msg, "--fork") {
		t.Fatalf("the message %q does not say who holds it and what to do", msg)
	}
	first.Release()
	again, err := s.Hold(m.ID)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	again.Release()
}

// A session resumed while another holds its conversation writes nothing: its log is the same
// bytes, and Close says who holds it.
func TestASessionOfAHeldConversationWritesNothing(t *testing.T) {
	s := openStore(t)
	m := saved(t, s, 1)
	before, err := os.ReadFile(s.LogPath(m.ID))
	if err != nil {
		t.Fatal(err)
	}
	holder, err := s.Hold(m.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	ss := s.Begin(Start{Resume: &m})
	ss.Add(user("interleaved?"))
	if err := ss.Close(); !errors.Is(err, ErrHeld) {
		t.Fatalf("Close: %v, want the conversation held", err)
	}
	if after, _ := os.ReadFile(s.LogPath(m.ID)); !bytes.Equal(before, after) {
		t.Fatalf("the held conversation's log changed:\n%s", after)
	}
}

// A session holds its conversation from its first write until Close, and not after.
func TestASessionHoldsItsConversationUntilClose(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
	ss.Add(user("hello"))
	waitFor(t, "the session to be written", ss.Saved)
	if _, err := s.Hold(ss.ID()); !errors.Is(err, ErrHeld) {
		t.Fatalf("an open session's conversation could be held: %v", err)
	}
	closeSession(t, ss)
	h, err := s.Hold(ss.ID())
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	h.Release()
}

// A fork is a new session with the parent's history and its own id; the index and its log's
// header name the parent, and the parent's log is left as it was.
func TestAForkCopiesUnderANewIDAndLeavesTheParent(t *testing.T) {
	s := openStore(t)
	parent := saved(t, s, 2)
	before, _ := os.ReadFile(s.LogPath(parent.ID))
	holder, err := s.Hold(parent.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	r, err := s.Load(parent)
	if err != nil {
		t.Fatal(err)
	}
	fork := s.Begin(Start{Header: sessionlog.Header{Model: "m"}, Seed: r.Messages, Parent: parent.ID})
	fork.Add(user("and then?"))
	fork.Add(assistant("more"))
	closeSession(t, fork)
	if fork.ID() == parent.ID {
		t.Fatal("the fork has its parent's id")
	}
	m, err := s.Find(fork.ID())
	if err != nil {
		t.Fatal(err)
	}
	if m.Parent != parent.ID || m.Turns != 3 {
		t.Fatalf("the fork's entry: %+v", m)
	}
	log, err := sessionlog.Read(s.LogPath(fork.ID()))
	if err != nil || len(log.Messages) != 6 {
		t.Fatalf("the fork's log: %+v, %v", log.Messages, err)
	}
	head, _ := os.ReadFile(s.LogPath(fork.ID()))
	if first, _, _ := bytes.Cut(head, []byte("\n")); !bytes.Contains(first, []byte(`"parent":"`+parent.ID+`"`)) {
		t.Fatalf("the fork's header does not name its parent: %s", first)
	}
	if after, _ := os.ReadFile(s.LogPath(parent.ID)); !bytes.Equal(before, after) {
		t.Fatal("the parent's log changed")
	}
}

// Writers of one index entry through separate handles (as several processes were, before a
// conversation had one writer) each add their turns to the count the index holds: none is
// lost.
func TestConcurrentUpdatesOfOneEntryLoseNoTurn(t *testing.T) {
	const writers, turns = 8, 5
	s := openStore(t)
	m := saved(t, s, 1)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			// A hold of its own, not the file's: each writer stands for a process of the past.
			ss := s.Begin(Start{Resume: &m, Hold: &Hold{}})
			for i := range turns {
				ss.Add(user(fmt.Sprintf("writer %d turn %d", w, i)))
				ss.Add(assistant("ok"))
			}
			errs <- ss.Close()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Find(m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + writers*turns; got.Turns != want {
		t.Fatalf("the index counts %d turns, want %d", got.Turns, want)
	}
}

// Removing a session takes its lock file too, but not while its conversation is held: another
// process could then hold a new file at the same path while the holder still writes.
func TestRemoveTakesTheLockFileUnlessHeld(t *testing.T) {
	s := openStore(t)
	held, free := saved(t, s, 1), saved(t, s, 1)
	h, err := s.Hold(held.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	for _, m := range []Meta{held, free} {
		if _, err := s.Remove(m.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(s.LockPath(held.ID)); err != nil {
		t.Fatalf("the held conversation's lock file: %v", err)
	}
	if _, err := os.Stat(s.LockPath(free.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock file of a conversation nobody holds stays: %v", err)
	}
}
