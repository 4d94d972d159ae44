package sessionlog

import (
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// Each finished turn's tally reads back under its last reply: the usage of all its requests
// (a tool round trip's too), the model of the time; a summary's usage after the reply is no
// turn's, and a stopped turn has none, as live.
func TestTalliesReadBackPerTurn(t *testing.T) {
	usage := func(in, out int) chat.Record {
		return chat.Record{Usage: &wire.Usage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out}}
	}
	reply := func(m wire.Message) chat.Record { m.Role = "assistant"; return chat.Record{Message: &m} }
	path := writeRecords(t,
		chat.Record{Model: "first"},
		userRecord("one"),
		usage(10, 1),
		reply(wire.Message{Parts: wire.ReplyParts("", "", []wire.ToolCall{{ID: "a", Name: "now"}})}),
		chat.Record{Message: &wire.Message{Role: "tool", ToolCallID: "a", Name: "now", Parts: wire.TextParts("noon")}},
		usage(20, 2),
		reply(wire.Message{Parts: wire.TextParts("It is noon.")}),
		usage(100, 50), // the summary's
		chat.Record{Compaction: &chat.Compaction{Summary: "They asked the time.", Turns: 1}},
		chat.Record{Model: "second"},
		userRecord("two"),
		usage(30, 3),
		reply(wire.Message{Parts: wire.TextParts("Half"), End: phase.End{Why: phase.EndStopped}}),
		userRecord("three"),
		usage(40, 4),
		reply(wire.Message{Parts: wire.TextParts("Done.")}),
	)
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range log.Tallies {
		log.Tallies[i].Took = 0 // the writer's clock
	}
	want := []chat.SavedTally{
		{Reply: 2, Usage: wire.Usage{PromptTokens: 30, CompletionTokens: 3, TotalTokens: 33}, Model: "first"},
		{Reply: 6, Usage: wire.Usage{PromptTokens: 40, CompletionTokens: 4, TotalTokens: 44}, Model: "second"},
	}
	if !reflect.DeepEqual(log.Tallies, want) {
		t.Fatalf("tallies %+v, want %+v", log.Tallies, want)
	}
}
