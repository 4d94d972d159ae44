package app

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// A fork's log holds the usage of the turns it copies, each in its turn and as long as it
// took: the fork resumed again gives the chat the tallies the original's resume gives.
func TestResumedForkKeepsTheCopiedTurnsTallies(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	first, err := openConversation(&Settings{}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	rec := first.Recorder()
	for i, q := range []string{"one", "two"} {
		rec.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts(q)}})
		rec.Add(chat.Record{Usage: &wire.Usage{PromptTokens: 100 * (i + 1), CompletionTokens: 7, CachedTokens: 40, TotalTokens: 100*(i+1) + 7}})
		rec.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("re " + q)}})
	}
	id := first.Session()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	tallies := func(s *Settings) ([]chat.SavedTally, string) {
		t.Helper()
		conv, err := openConversation(s, sessionlog.Header{Model: "m"}, "host")
		if err != nil {
			t.Fatal(err)
		}
		got := conv.Tallies()
		if s.Fork {
			conv.Recorder().Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("three")}})
		}
		if err := conv.Close(); err != nil {
			t.Fatal(err)
		}
		return got, conv.Session()
	}
	want, _ := tallies(&Settings{Resume: id})
	if len(want) != 2 || want[1].Usage.PromptTokens != 200 || want[0].Took <= 0 {
		t.Fatalf("the original resumes with the tallies %+v", want)
	}
	_, forkID := tallies(&Settings{Resume: id, Fork: true})
	if forkID == id {
		t.Fatal("no fork was made")
	}
	if got, _ := tallies(&Settings{Resume: forkID}); !reflect.DeepEqual(got, want) {
		t.Fatalf("the fork resumes with the tallies %+v, the original with %+v", got, want)
	}
}
