package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// A fork held with another model keeps the model and the price of the turns it copies: the
// fork resumed again shows them at the price they were made at and its own turn at its own,
// and its entry's cost adds them so.
func TestAForkWithAnotherModelKeepsTheCopiedTurnsPrice(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	f, err := config.Parse([]byte("[model.\"cheap\"]\ncost_in = 1\ncost_out = 2\n\n[model.\"dear\"]\ncost_in = 10\ncost_out = 20\n"), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	cheap, dear := budget.Price{In: 1, Out: 2}, budget.Price{In: 10, Out: 20}
	turn := func(rec perform.Recorder, q string, u wire.Usage, price budget.Price) {
		rec.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts(q)}})
		rec.Add(chat.Record{Usage: &u, Cost: price.Cost(u)})
		rec.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("re " + q)}})
	}
	one, two, three := wire.Usage{PromptTokens: 1000, CompletionTokens: 100}, wire.Usage{PromptTokens: 2000, CompletionTokens: 200}, wire.Usage{PromptTokens: 3000, CompletionTokens: 300}

	first, err := openConversation(&Settings{File: f, Model: "cheap"}, sessionlog.Header{Model: "cheap"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	turn(first.Recorder(), "one", one, cheap)
	turn(first.Recorder(), "two", two, cheap)
	id := first.Session()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	fork, err := openConversation(&Settings{File: f, Model: "dear", Resume: id, Fork: true}, sessionlog.Header{Model: "dear"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	turn(fork.Recorder(), "three", three, dear)
	forkID := fork.Session()
	if err := fork.Close(); err != nil {
		t.Fatal(err)
	}

	s := &Settings{File: f, Model: "dear", Resume: forkID}
	again, err := openConversation(s, sessionlog.Header{Model: "dear"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	engine := chat.New(chat.Config{Model: "dear", Budget: s.ModelBudget("", "dear")}, again.History())
	engine.SetTallies(again.Tallies())
	type shown struct {
		model string
		cost  float64
	}
	var got []shown
	for _, e := range engine.Entries() {
		if tally, ok := e.Tally(); ok && tally.Priced {
			got = append(got, shown{tally.Model, tally.Cost})
		}
	}
	want := []shown{{"cheap", cheap.Cost(one)}, {"cheap", cheap.Cost(two)}, {"dear", dear.Cost(three)}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("the resumed fork's tally lines show %+v, want %+v", got, want)
	}
	if usd, priced := engine.Cost(); usd != 0 || priced {
		t.Fatalf("before any request the status line's cost is %v (%v), want none", usd, priced)
	}
	store, err := OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	entry, err := store.Find(forkID)
	if err != nil {
		t.Fatal(err)
	}
	if total := cheap.Cost(one) + cheap.Cost(two) + dear.Cost(three); !near(entry.CostUSD, total) || entry.Model != "dear" {
		t.Fatalf("the fork's entry: model %q, cost %v; want dear, %v", entry.Model, entry.CostUSD, total)
	}
}

// The --log file that follows a conversation resumed on screen names the models its messages
// were held with, then the model in use for what comes next.
func TestLogFileKeepsTheModelsOfAResumedConversation(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	first, err := openConversation(&Settings{}, sessionlog.Header{Model: "cheap"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	first.Recorder().Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("one")}})
	first.Recorder().Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("1")}})
	id := first.Session()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "chat.jsonl")
	conv, err := openConversation(&Settings{LogPath: logPath}, sessionlog.Header{Model: "dear"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	res, err := conv.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	res.Log.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("two")}})
	if err := conv.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := sessionlog.Read(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log.MessageModels, ","); got != "cheap,cheap,dear" || log.Model() != "dear" {
		t.Fatalf("the --log file's messages were held with %q, its model is %q", got, log.Model())
	}
}
