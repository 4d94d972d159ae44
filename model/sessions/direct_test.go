package sessions

import (
	"os"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
)

// Once the log is open, a reply's streamed text goes straight to it, not through the session's
// queue: it reaches the log while the session's own goroutine cannot hand anything over.
func TestStreamedTextBypassesTheSessionQueue(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{Title: "t"})
	defer closeSession(t, ss) // after the unlock below
	ss.Add(user("hello"))
	ss.Add(chat.Record{Live: &chat.Live{What: chat.LiveBegin}})
	if err := ss.Sync(); err != nil {
		t.Fatal(err)
	}
	ss.flushing.Lock() // nothing queued can reach the log now
	ss.Add(chat.Record{Live: &chat.Live{What: chat.LiveText, Text: "streamed words"}})
	defer ss.flushing.Unlock()
	ss.mu.Lock()
	queued := len(ss.todo)
	ss.mu.Unlock()
	if queued != 0 {
		t.Fatalf("%d records were queued", queued)
	}
	testwait.Until(t, func() bool {
		b, _ := os.ReadFile(ss.Path())
		return strings.Contains(string(b), "streamed words")
	}, "the streamed text in the log")
}
