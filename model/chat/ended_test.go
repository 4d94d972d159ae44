package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream"
)

// A reply that ended early is marked again when its history is resumed, from the typed end
// the history keeps for it; a whole reply is marked nothing.
func TestResumedReplyKeepsItsEndMark(t *testing.T) {
	for _, tc := range []struct {
		mark transcript.Mark
		note string
	}{
		{transcript.MarkNone, ""},
		{transcript.MarkStopped, ""},
		{transcript.MarkFailed, "HTTP 500: the server had an error"},
		{transcript.MarkCutOff, "The reply reached the output limit."},
	} {
		var tr transcript.Transcript
		live := tr.Add(transcript.Spec{Role: transcript.RoleAssistant, Text: "partial"})
		tr.SetMark(live, tc.mark, tc.note)
		end := endOf(live)
		history := []stream.Message{{Role: "user", Content: "hi"}, {Role: "assistant", Content: "partial", End: end}}
		e := New(Config{}, history).Entries()[1]
		if e.Mark() != tc.mark || e.Note() != tc.note {
			t.Errorf("%+v resumed as mark %v note %q, want %v %q", end, e.Mark(), e.Note(), tc.mark, tc.note)
		}
	}
	for _, end := range []phase.End{{Why: phase.EndSignal, Note: "SIGTERM"}, {Why: phase.EndCrashed}} {
		history := []stream.Message{{Role: "user", Content: "hi"}, {Role: "assistant", Content: "partial", End: end}}
		if e := New(Config{}, history).Entries()[1]; e.Mark() != transcript.MarkStopped {
			t.Errorf("%+v marked the resumed reply %v, want stopped", end, e.Mark())
		}
	}
}
