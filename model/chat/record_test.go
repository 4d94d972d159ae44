package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// The record of a reply that ended early says why; a whole reply's says nothing.
func TestRecordOfAnIncompleteReplySaysWhy(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("hello"))
	h.feed(text("Once upon a"))
	recs := effectsOf[Record](h.c.Stop())
	if len(recs) != 1 || recs[0].Message == nil || recs[0].Message.Text() != "Once upon a" || recs[0].Message.End != (phase.End{Why: phase.EndStopped}) {
		t.Fatalf("records after Stop: %+v", recs)
	}
	h.do(h.c.Submit("again"))
	h.feed(text("whole"))
	h.feed(doneUpdate())
	recs = effectsOf[Record](h.end(complete(nil)))
	for _, r := range recs {
		if r.Message != nil && !r.Message.End.Whole() {
			t.Fatalf("a whole reply is marked %+v", r.Message.End)
		}
	}
}

func TestModelSwitchIsRecorded(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	if recs := effectsOf[Record](h.c.SetModel("groq", "llama")); len(recs) != 1 || recs[0].Model != "groq/llama" || recs[0].Message != nil {
		t.Fatalf("records of a switch: %+v", recs)
	}
	if effects := h.c.SetModel("groq", "llama"); len(effects) != 0 {
		t.Fatalf("switching to the model in use records %+v", effects)
	}
	if recs := effectsOf[Record](h.c.SetModel("", "plain")); len(recs) != 1 || recs[0].Model != "plain" {
		t.Fatalf("records of a switch without a provider: %+v", recs)
	}
}
