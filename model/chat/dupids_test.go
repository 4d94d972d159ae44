package chat

import (
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// A resumed log whose assistant message repeats a call id still makes a valid request: the
// calls get distinct ids, each result answers its own call in order, and the input is kept.
func TestResumedDuplicateCallIDsMakeAValidRequest(t *testing.T) {
	in := []wire.Message{
		{Role: "user", Content: "go"},
		{Role: "assistant", ToolCalls: []wire.ToolCall{{ID: "call_0", Name: "now"}, {ID: "call_0", Name: "now", Arguments: `{"a":1}`}, {ID: "x", Name: "now"}}},
		{Role: "tool", ToolCallID: "call_0", Content: "first"},
		{Role: "tool", ToolCallID: "call_0", Content: "second"},
	}
	orig := in[1].ToolCalls[1].ID
	out := repairHistory(in)
	var ids, results []string
	for _, c := range out[1].ToolCalls {
		ids = append(ids, c.ID)
	}
	for _, m := range out[2:] {
		results = append(results, m.ToolCallID+"="+m.Content)
	}
	if !reflect.DeepEqual(ids, []string{"call_0", "call_0_2", "x"}) {
		t.Fatalf("ids %q", ids)
	}
	if !reflect.DeepEqual(results, []string{"call_0=first", "call_0_2=second", "x=" + resultInterrupted}) {
		t.Fatalf("results %q", results)
	}
	if in[1].ToolCalls[1].ID != orig {
		t.Fatal("the input history was changed")
	}
}
