package app

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// A conversation held by another process is refused without a choice to make, viewed without
// writing a byte of it, or continued in a copy that names it as parent; the session picker
// refuses it too.
func TestAHeldConversationIsRefusedViewedOrForked(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	first, err := openConversation(&Settings{}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	first.Recorder().Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("hello")}})
	id := first.Session()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	store, err := OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	before := readFile(t, store.LogPath(id))
	holder, err := store.Hold(id)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()

	if _, err := openConversation(&Settings{Continue: true}, sessionlog.Header{}, "host"); !errors.Is(err, sessions.ErrHeld) {
		t.Fatalf("without a choice: %v", err)
	}
	asked := 0
	choose := func(c sessions.HeldChoice) func(*sessions.HeldError) sessions.HeldChoice {
		return func(e *sessions.HeldError) sessions.HeldChoice {
			if e.ID != id || e.Holder.PID != os.Getpid() {
				t.Errorf("asked about %+v", e)
			}
			asked++
			return c
		}
	}
	view, err := openConversation(&Settings{Continue: true, OnHeld: choose(sessions.HeldView)}, sessionlog.Header{}, "host")
	if err != nil || view.Saving() || len(view.History()) != 1 {
		t.Fatalf("viewing: saving %v, history %v, %v", view != nil && view.Saving(), view.History(), err)
	}
	view.Recorder() // nothing to record into
	view.Close()
	if _, err := openConversation(&Settings{Continue: true, OnHeld: choose(sessions.HeldQuit)}, sessionlog.Header{}, "host"); !errors.Is(err, sessions.ErrHeld) {
		t.Fatalf("quitting: %v", err)
	}
	fork, err := openConversation(&Settings{Continue: true, OnHeld: choose(sessions.HeldFork)}, sessionlog.Header{}, "host")
	if err != nil || !fork.Saving() {
		t.Fatal(err)
	}
	fork.Recorder().Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("more")}})
	forkID := fork.Session()
	if _, err := fork.Resume(id); !errors.Is(err, sessions.ErrHeld) {
		t.Fatalf("the picker resumed a held conversation: %v", err)
	}
	if err := fork.Close(); err != nil {
		t.Fatal(err)
	}
	if asked != 3 {
		t.Fatalf("asked %d times, want 3", asked)
	}
	m, err := store.Find(forkID)
	if err != nil || forkID == id || m.Parent != id || m.Turns != 2 {
		t.Fatalf("the copy: %+v, %v", m, err)
	}
	if readFile(t, store.LogPath(id)) != before {
		t.Fatal("the held conversation's log changed")
	}
}

func TestForkNeedsAConversationToCopy(t *testing.T) {
	f := Flags{Fork: true, MaxReplyMiB: 1, MaxTools: 1, MaxSteps: 1, Theme: "auto"}
	if err := f.Check(); err == nil {
		t.Fatal("--fork alone was taken")
	}
	f.Continue = true
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
}
