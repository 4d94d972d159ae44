package stream

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

func TestWriteObjectIsTheIndentedEncoding(t *testing.T) {
	msg := "the <server> & \"it\" failed"
	objects := []ReplayObject{
		{ToolCalls: []ReplayCall{}},
		{Content: "a <b> & c\n\t\"q\" \u2028 é 😀 \x01 \xff", Reasoning: "think", ToolCalls: []ReplayCall{},
			FinishReason: "stop", Usage: &wire.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7, CachedTokens: 1},
			Outcome: wire.OutcomeComplete},
		{ToolCalls: []ReplayCall{{Index: 0, ID: "call_1", Name: "f", Arguments: `{"a":"<x>"}`}, {Index: 2, ID: "", Name: "g", Arguments: ""}},
			FinishReason: "tool_calls", Usage: &wire.Usage{}, Outcome: wire.OutcomeError, Error: &msg},
	}
	for _, o := range objects {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(o); err != nil {
			t.Fatal(err)
		}
		if err := writeObject(&got, o); err != nil || got.String() != want.String() {
			t.Errorf("writeObject wrote (err %v)\n%s\nencoding/json writes\n%s", err, got.String(), want.String())
		}
	}
}

func TestReplayReadsARecordingInLargePieces(t *testing.T) {
	body := strings.Repeat("data: "+delta(`{"content":"word "}`)+"\n\n", 2000)
	rec := &pacedSizes{r: strings.NewReader(body)}
	if _, err := Replay(rec, "", ReplayJSON, new(bytes.Buffer), nil); err != nil {
		t.Fatal(err)
	}
	if most := len(body)/replayRead + 4; len(rec.sizes) > most {
		t.Fatalf("%d reads of a %d-byte recording; want at most %d", len(rec.sizes), len(body), most)
	}
}
