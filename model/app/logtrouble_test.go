package app

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// A session's log that cannot be written (here a directory stands where it goes; a full disk
// the same) is told to the front end at once, as the --log file's trouble is, for the first
// conversation and for one begun with /new.
func TestTheSessionLogsTroubleIsToldAtOnce(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	conv, err := openConversation(&Settings{}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	defer conv.Close()
	trouble := make(chan error, 8)
	conv.OnLogTrouble(func(err error) { trouble <- err })
	for _, begin := range []func() string{conv.Session, func() string { conv.New(); return conv.Session() }} {
		id := begin()
		if err := os.MkdirAll(conv.store.LogPath(id), 0o700); err != nil {
			t.Fatal(err)
		}
		conv.Recorder().Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("hello")}})
		var told error
		testwait.Until(t, func() bool {
			select {
			case told = <-trouble:
			default:
			}
			return told != nil
		}, "the failed write of session %s was not told", id)
	}
}

// A conversation of which only a part could be written (the disk filled up) does not end
// with "Conversation saved": the line says only a part was.
func TestSavedLineSaysWhenOnlyAPartWasSaved(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("mounts a tmpfs: Linux only")
	}
	data := t.TempDir()
	if err := syscall.Mount("tmpfs", data, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v)", err)
	}
	t.Cleanup(func() { syscall.Unmount(data, syscall.MNT_DETACH) })
	t.Setenv("XDG_DATA_HOME", data)
	conv, err := openConversation(&Settings{}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	conv.Recorder().Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("hello")}})
	if err := conv.session.Sync(); err != nil {
		t.Fatal(err)
	}
	// The index entry is written beside the log, on a goroutine of its own: the part saved is
	// the one listed, so the disk fills once it is.
	testwait.Until(t, func() bool { return conv.SavedID() != "" }, "the session was never listed")
	if err := os.WriteFile(filepath.Join(data, "filler"), make([]byte, 64<<10), 0o600); err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	conv.Recorder().Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts(strings.Repeat("x", 32<<10))}})
	if err := conv.Close(); err == nil {
		t.Fatal("closing on a full disk reported no error")
	}
	if line := conv.SavedLine(); !strings.Contains(line, "saved only in part") {
		t.Fatalf("saved line %q", line)
	}
}
