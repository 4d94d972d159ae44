package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// A reply that ended early is marked again when its history is resumed, from the typed end
// the history keeps for it; a whole reply is marked nothing.
func TestResumedReplyKeepsItsEndMark(t *testing.T) {
	for _, tc := range []struct {
		end  phase.End
		mark transcript.Mark
	}{
		{phase.End{}, transcript.MarkNone},
		{phase.End{Why: phase.EndStopped}, transcript.MarkStopped},
		{phase.End{Why: phase.EndFailed, Note: "HTTP 500: the server had an error"}, transcript.MarkFailed},
		{phase.End{Why: phase.EndCutOff, Note: "The reply reached the output limit."}, transcript.MarkCutOff},
		{phase.End{Why: phase.EndSignal, Note: "SIGTERM"}, transcript.MarkStopped},
		{phase.End{Why: phase.EndCrashed}, transcript.MarkStopped},
	} {
		history := []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}, {Role: "assistant", Parts: wire.TextParts("partial"), End: tc.end}}
		e := New(Config{}, history).Entries()[1]
		if e.End() != tc.end || e.Mark() != tc.mark || e.Note() != tc.end.Note {
			t.Errorf("%+v resumed as %+v, mark %v note %q, want mark %v", tc.end, e.End(), e.Mark(), e.Note(), tc.mark)
		}
	}
}

// A reply a signal stopped says so in its end, and its running calls are stopped as by Esc.
func TestStopBySignalEndsTheReplyTyped(t *testing.T) {
	h := newHarness(t, Config{Tools: fakeTools{}})
	h.do(h.c.Submit("hello"))
	h.feed(text("Once upon a"))
	recs := effectsOf[Record](h.c.StopBySignal("SIGTERM"))
	want := phase.End{Why: phase.EndSignal, Note: "SIGTERM"}
	if len(recs) != 1 || recs[0].Message == nil || recs[0].Message.End != want || recs[0].Message.End.Text() != "stopped by SIGTERM" {
		t.Fatalf("records after a signal: %+v", recs)
	}
	if e := h.c.Entries()[1]; e.End() != want || e.Mark() != transcript.MarkStopped || h.c.State.Phase.Streaming() {
		t.Fatalf("the reply after a signal: %+v, mark %v, phase %s", e.End(), e.Mark(), h.c.State.Phase)
	}
}
