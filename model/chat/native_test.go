package chat

import (
	"encoding/json"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// The reasoning a provider wants back with a tool-using reply stays on that reply in the
// history, so the continuation (and a resumed session) sends it.
func TestNativeReasoningStaysWithTheReply(t *testing.T) {
	h := newHarness(t, Config{Model: "claude", Tools: fakeTools{}})
	h.do(h.c.Submit("what time is it"))
	h.feed(toolFrame("now", start("t1", "now"), delta("t1", "{}"), ready("t1")))
	native := &wire.NativeReasoning{Wire: wire.WireAnthropic, Items: []json.RawMessage{json.RawMessage(`{"type":"thinking","thinking":"hm","signature":"s"}`)}}
	res := complete(nil)
	res.Message.Native = native
	h.end(res)
	effects := h.toolDone("t1", "noon", false)
	opens := effectsOf[OpenStream](effects)
	if len(opens) != 1 {
		t.Fatalf("no continuation: %+v", effects)
	}
	if got := opens[0].Request.Messages[1]; got.Role != "assistant" || got.Native != native {
		t.Fatalf("continuation's assistant message %+v", got)
	}
	records := finalRecords(effects)
	if len(records) == 0 || records[0].Message == nil || records[0].Message.Native != native {
		t.Fatalf("the session log must keep it: %+v", records)
	}
}
