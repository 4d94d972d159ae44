package app

import (
	"os"
	"path/filepath"
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
