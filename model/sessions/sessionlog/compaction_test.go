package sessionlog

import (
	"os"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// A compaction reads back with every message of the conversation kept: the original turns
// stay in the log for show and export, and the last compaction says what requests send.
func TestACompactionReadsBackBesideEveryMessage(t *testing.T) {
	reply := func(s string) chat.Record {
		return chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts(s)}}
	}
	path := writeRecords(t,
		userRecord("one"), reply("first"),
		userRecord("two"), reply("second"),
		chat.Record{Compaction: &chat.Compaction{Summary: "an old summary", Turns: 1}},
		userRecord("three"), reply("third"),
		chat.Record{Compaction: &chat.Compaction{Summary: "They counted.", Turns: 2}},
	)
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := roles(log.Messages); got != "user,assistant,user,assistant,user,assistant" || len(log.Skipped) != 0 {
		t.Fatalf("roles %s, skipped %v", got, log.Skipped)
	}
	if last := lastCompaction(log); last == nil || *last != (chat.Compaction{Summary: "They counted.", Turns: 2, After: 3}) {
		t.Fatalf("compactions %+v", log.Compactions)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"type":"compaction"`) || !strings.Contains(string(b), `"compaction":{"summary":"They counted.","turns":2}`) {
		t.Fatalf("the compaction is not its own typed record:\n%s", b)
	}
}

// A new conversation begun in the same log has no compaction, and a compaction record that
// stands for no turn is no record.
func TestACompactionBelongsToItsConversation(t *testing.T) {
	path := writeRecords(t,
		userRecord("one"),
		chat.Record{Compaction: &chat.Compaction{Summary: "S", Turns: 1}},
	)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"compaction","compaction":{"summary":"none","turns":0}}` + "\n")
	f.Close()
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if last := lastCompaction(log); last == nil || last.Summary != "S" || len(log.Skipped) != 1 {
		t.Fatalf("compactions %+v, skipped %v", log.Compactions, log.Skipped)
	}
	w := create(t, path)
	w.Head(Header{Model: "m", New: true})
	w.Add(userRecord("fresh"))
	closeLog(t, w)
	if log, err = Read(path); err != nil || lastCompaction(log) != nil {
		t.Fatalf("a new conversation has the old one's compaction: %+v %v", log.Compactions, err)
	}
}

// lastCompaction is the compaction in force in log, nil when it has none.
func lastCompaction(log Log) *chat.Compaction {
	if len(log.Compactions) == 0 {
		return nil
	}
	return &log.Compactions[len(log.Compactions)-1]
}
