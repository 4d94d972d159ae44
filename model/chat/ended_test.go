package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// A reply that ended early is marked again when its history is resumed, from the words the
// log keeps for it; words it never writes mark nothing.
func TestResumedReplyKeepsItsEndMark(t *testing.T) {
	for _, tc := range []struct {
		mark transcript.Mark
		note string
	}{
		{transcript.MarkStopped, ""},
		{transcript.MarkFailed, "HTTP 500: the server had an error"},
		{transcript.MarkCutOff, "The reply reached the output limit."},
	} {
		var tr transcript.Transcript
		live := tr.Add(transcript.Spec{Role: transcript.RoleAssistant, Text: "partial"})
		tr.SetMark(live, tc.mark, tc.note)
		why := endedWhy(live)
		history := []wire.Message{{Role: "user", Content: "hi"}, {Role: "assistant", Content: "partial", Ended: why}}
		e := New(Config{}, history).Entries()[1]
		if e.Mark() != tc.mark || e.Note() != tc.note {
			t.Errorf("%q resumed as mark %v note %q, want %v %q", why, e.Mark(), e.Note(), tc.mark, tc.note)
		}
	}
	for _, why := range []string{"", "exploded", "Stopped by the user", "cut off"} {
		history := []wire.Message{{Role: "user", Content: "hi"}, {Role: "assistant", Content: "partial", Ended: why}}
		if e := New(Config{}, history).Entries()[1]; e.Mark() != transcript.MarkNone {
			t.Errorf("%q marked the resumed reply %v", why, e.Mark())
		}
	}
}
