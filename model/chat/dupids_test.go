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
		{Role: "user", Parts: wire.TextParts("go")},
		{Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{{ID: "call_0", Name: "now"}, {ID: "call_0", Name: "now", Arguments: `{"a":1}`}, {ID: "x", Name: "now"}})},
		{Role: "tool", ToolCallID: "call_0", Parts: wire.TextParts("first")},
		{Role: "tool", ToolCallID: "call_0", Parts: wire.TextParts("second")},
	}
	orig := in[1].Calls()[1].ID
	out := repairHistory(in)
	var ids, results []string
	for _, c := range out[1].Calls() {
		ids = append(ids, c.ID)
	}
	for _, m := range out[2:] {
		results = append(results, m.ToolCallID+"="+m.Text())
	}
	if !reflect.DeepEqual(ids, []string{"call_0", "call_0_2", "x"}) {
		t.Fatalf("ids %q", ids)
	}
	if !reflect.DeepEqual(results, []string{"call_0=first", "call_0_2=second", "x=" + resultInterrupted}) {
		t.Fatalf("results %q", results)
	}
	if in[1].Calls()[1].ID != orig {
		t.Fatal("the input history was changed")
	}
}
