package sessions

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// The index entry counts only what the log holds: an update of the entry waits in the log's
// order behind the records it counts, and finds the log at the size it records.
func TestTheEntryCountsOnlyWhatTheLogHolds(t *testing.T) {
	s := openStore(t)
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}})
	defer closeSession(t, ss)
	ss.Add(user("one"))
	ss.Add(assistant("1"))
	entry := func() Meta {
		m, _ := s.Find(ss.ID())
		return m
	}
	waitFor(t, "the first turn in the entry", func() bool { return entry().Turns == 1 })
	release := make(chan struct{})
	ss.log.Then(func() { <-release }) // the log's order stops here until released
	ss.Add(user("two"))
	ss.Add(assistant("2"))
	if m := entry(); m.Turns != 1 {
		t.Fatalf("the entry counts %d turns while the second is not written", m.Turns)
	}
	close(release)
	waitFor(t, "the second turn in the entry", func() bool { return entry().Turns == 2 })
	m := entry()
	log, err := sessionlog.Read(ss.Path())
	if err != nil || len(log.Messages) != 4 {
		t.Fatalf("the entry counts 2 turns, the log reads %+v, %v", log, err)
	}
	if fi, err := os.Stat(ss.Path()); err != nil || fi.Size() != m.Size {
		t.Fatalf("the entry's size %d, the log's %v (%v)", m.Size, fi, err)
	}
}

// The records of a conversation are written in the order they were added, the header and the
// seed first, whatever kind they are: streamed text added while the log is being opened comes
// after the records added before it, and before those added after it.
func TestRecordsKeepTheirOrderFromTheFirst(t *testing.T) {
	s := openStore(t)
	seed := []wire.Message{*user("old").Message, *assistant("old answer").Message}
	ss := s.Begin(Start{Header: sessionlog.Header{Model: "m"}, Seed: seed})
	defer closeSession(t, ss)
	live := func(what chat.LiveWhat, text string) chat.Record {
		return chat.Record{Live: &chat.Live{What: what, Text: text, ID: "c", Name: "read"}}
	}
	ss.Add(user("new"))
	ss.Add(live(chat.LiveBegin, ""))
	ss.Add(live(chat.LiveText, "first words"))
	ss.Add(live(chat.LiveCall, ""))
	ss.Add(live(chat.LiveReasoning, "a thought"))
	ss.Add(live(chat.LiveRun, ""))
	ss.Add(chat.Record{Usage: &wire.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}})
	ss.Add(live(chat.LiveText, "more words"))
	if err := ss.Sync(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(ss.Path())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for line := range bytes.Lines(b) {
		var rec struct {
			Type    string
			Message *struct{ Role string }
			Live    *struct{ What, Text string }
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		switch {
		case rec.Message != nil:
			got = append(got, rec.Message.Role)
		case rec.Live != nil:
			got = append(got, strings.TrimSpace(rec.Live.What+" "+rec.Live.Text))
		default:
			got = append(got, rec.Type)
		}
	}
	want := "session,user,assistant,user,begin,text first words,call,reasoning a thought,run,usage,text more words"
	if strings.Join(got, ",") != want {
		t.Fatalf("the log holds\n%s\nwant\n%s", strings.Join(got, ","), want)
	}
}
