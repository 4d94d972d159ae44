package sessionlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// How a reply and each call ended is written typed, beside the message, only when it was not
// whole or done, and read back as it was written.
func TestEndsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	stopped := phase.Interruption{Why: phase.CutByUser, Stage: phase.CallRunning}
	msgs := []wire.Message{
		{Role: "user", Parts: wire.TextParts("go")},
		{Role: "assistant", Parts: wire.ReplyParts("", "Let me", []wire.ToolCall{{ID: "a", Name: "now"}, {Index: 1, ID: "b", Name: "sh"}, {Index: 2, ID: "c", Name: "hang"}}), End: phase.End{Why: phase.EndFailed, Note: "HTTP 500"}},
		{Role: "tool", ToolCallID: "a", Parts: wire.TextParts("noon")},
		{Role: "tool", ToolCallID: "b", Parts: wire.TextParts(phase.NotRunDeclined.Text()), Ending: phase.Ending{Status: phase.CallDeclined, NotRun: phase.NotRunDeclined}},
		{Role: "tool", ToolCallID: "c", Parts: wire.TextParts(stopped.Text()), Ending: phase.Ending{Status: phase.CallInterrupted, Interruption: stopped}},
	}
	for i := range msgs {
		w.Add(chat.Record{Message: &msgs[i]})
	}
	closeLog(t, w)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"end":{"why":"failed","note":"HTTP 500"}`, `"call":{"status":"declined","not_run":"declined"}`,
		`"call":{"status":"interrupted","cut":"user","stage":"running"}`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the log has no %s:\n%s", want, data)
		}
	}
	if n := strings.Count(string(data), `"end":`) + strings.Count(string(data), `"call":`); n != 3 {
		t.Errorf("%d ends written, want 3 (a whole reply and a done call say nothing):\n%s", n, data)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range log.Messages {
		if m.End != msgs[i].End || m.Ending != msgs[i].Ending {
			t.Errorf("message %d read back as %+v %+v, want %+v %+v", i, m.End, m.Ending, msgs[i].End, msgs[i].Ending)
		}
	}
}

// A log written before ends were typed keeps them in words: "ended" beside a reply, and the
// engine's own answers as tool results. They are read into the same typed ends, and a resumed
// conversation shows the reply marked and the cards as they were live.
func TestOldLogEndsAreReadTyped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.jsonl")
	old := `{"type":"session","time":"2026-11-01T08:00:00Z","session":{"model":"m"}}
{"type":"message","time":"2026-11-01T08:00:01Z","message":{"role":"user","content":"go"}}
{"type":"message","time":"2026-11-01T08:00:02Z","ended":"stopped by the user","text_after":[3],"message":{"role":"assistant","content":"abcdef","tool_calls":[{"id":"a","type":"function","function":{"name":"now","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"sh","arguments":"{}"}},{"id":"c","type":"function","function":{"name":"hang","arguments":"{}"}},{"id":"d","type":"function","function":{"name":"mark","arguments":"{}"}}]}}
{"type":"message","time":"2026-11-01T08:00:03Z","message":{"role":"tool","tool_call_id":"a","content":"noon"}}
{"type":"message","time":"2026-11-01T08:00:03Z","message":{"role":"tool","tool_call_id":"b","content":"The user declined to run this tool."}}
{"type":"message","time":"2026-11-01T08:00:03Z","message":{"role":"tool","tool_call_id":"c","content":"stopped by the user"}}
{"type":"message","time":"2026-11-01T08:00:03Z","message":{"role":"tool","tool_call_id":"d","content":"interrupted: the request failed while this tool ran; the tool was stopped (HTTP 500)"}}
{"type":"message","time":"2026-11-01T08:00:04Z","message":{"role":"user","content":"again"}}
{"type":"message","time":"2026-11-01T08:00:05Z","ended":"the request failed: HTTP 500","message":{"role":"assistant","content":"x"}}
{"type":"message","time":"2026-11-01T08:00:06Z","ended":"cut off: The reply reached the output limit.","message":{"role":"assistant","content":"y"}}
{"type":"message","time":"2026-11-01T08:00:07Z","ended":"exploded","message":{"role":"assistant","content":"z"}}
`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	ends := []phase.End{{}, {Why: phase.EndStopped}, {}, {}, {}, {}, {}, {Why: phase.EndFailed, Note: "HTTP 500"},
		{Why: phase.EndCutOff, Note: "The reply reached the output limit."}, {}}
	endings := []phase.CallStatus{"", "", "", phase.CallDeclined, phase.CallInterrupted, phase.CallError, "", "", "", ""}
	if len(log.Messages) != len(ends) {
		t.Fatalf("%d messages", len(log.Messages))
	}
	for i, m := range log.Messages {
		if m.End != ends[i] || m.Ending.Status != endings[i] {
			t.Errorf("message %d: %+v %+v, want %+v %s", i, m.End, m.Ending, ends[i], endings[i])
		}
	}
	entries := chat.New(chat.Config{}, log.Messages).Entries()
	reply := entries[1]
	if reply.Mark() != transcript.MarkStopped || entries[3].Mark() != transcript.MarkFailed || entries[3].Note() != "HTTP 500" ||
		entries[4].Mark() != transcript.MarkCutOff || entries[5].Mark() != transcript.MarkNone {
		t.Errorf("marks %v %v %q %v %v", reply.Mark(), entries[3].Mark(), entries[3].Note(), entries[4].Mark(), entries[5].Mark())
	}
	want := []struct {
		status  phase.CallStatus
		stopped bool
	}{{phase.CallDone, false}, {phase.CallDeclined, false}, {phase.CallInterrupted, true}, {phase.CallError, false}}
	for i, c := range reply.Cards() {
		stopped := c.Call().Interruption.Why == phase.CutByUser
		if c.Status() != want[i].status || stopped != want[i].stopped || c.IsError() != (i > 0) {
			t.Errorf("card %s: %s stopped %v error %v, want %s %v", c.ID(), c.Status(), stopped, c.IsError(), want[i].status, want[i].stopped)
		}
	}
}

// A real log of a version that wrote how things ended in words (a reply stopped while its
// calls ran: "ended", the places of its cards, the engine's answers as results) reads into
// parts in the order the reply streamed and into the typed ends it meant.
func TestALogWrittenInWordsReadsIntoPartsAndEnds(t *testing.T) {
	log, err := Read("testdata/before-ends.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Messages) < 4 {
		t.Fatalf("%d messages", len(log.Messages))
	}
	reply := log.Messages[1]
	const want = "t:Let me look at the directory first. c:call_look t:\n\nThe listing is on its way. Once more, to be sure: c:call_again t:\n\nSo both listings will come back together."
	if got := layout(reply.Parts); got != want || reply.End != (phase.End{Why: phase.EndStopped}) {
		t.Fatalf("reply %q ended %+v", got, reply.End)
	}
	stopped := phase.Ending{Status: phase.CallInterrupted, Interruption: phase.Interruption{Why: phase.CutByUser, Stage: phase.CallRunning}}
	for _, m := range log.Messages[2:4] {
		if m.Role != "tool" || m.Ending != stopped {
			t.Fatalf("result %+v, want ended %+v", m, stopped)
		}
	}
}
