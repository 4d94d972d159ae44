package sessions

import (
	"os"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
)

// Once the log is open, a reply's streamed text goes straight to it: the session queues
// nothing of its own, and the text reaches the log with nothing added after it and no Sync.
func TestStreamedTextGoesStraightToTheLog(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{Title: "t"})
	defer closeSession(t, ss)
	ss.Add(user("hello"))
	ss.Add(chat.Record{Live: &chat.Live{What: chat.LiveBegin}})
	if err := ss.Sync(); err != nil {
		t.Fatal(err)
	}
	ss.Add(chat.Record{Live: &chat.Live{What: chat.LiveText, Text: "streamed words"}})
	testwait.Until(t, func() bool {
		b, _ := os.ReadFile(ss.Path())
		return strings.Contains(string(b), "streamed words")
	}, "the streamed text in the log")
}
