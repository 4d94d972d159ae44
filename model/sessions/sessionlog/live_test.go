package sessionlog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

func liveRec(l chat.Live) chat.Record { return chat.Record{Live: &l} }

// writeRecords writes recs through a Writer and returns the log's path.
func writeRecords(t *testing.T, recs ...chat.Record) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "live.jsonl")
	w := create(t, path)
	for _, r := range recs {
		w.Add(r)
	}
	closeLog(t, w)
	return path
}

// A request the log holds no final reply for reads back as far as its records go: the reply
// so far marked as cut short by a crash, and every call it made answered — with its result,
// or with what became of it.
func TestARequestInFlightReadsBackMarked(t *testing.T) {
	path := writeRecords(t,
		userRecord("do things"),
		liveRec(chat.Live{What: chat.LiveBegin}),
		liveRec(chat.Live{What: chat.LiveReasoning, Text: "think"}),
		liveRec(chat.Live{What: chat.LiveText, Text: "Let me "}),
		liveRec(chat.Live{What: chat.LiveText, Text: "look. "}),
		liveRec(chat.Live{What: chat.LiveCall, ID: "a", Name: "read", Args: `{"p":1}`}),
		liveRec(chat.Live{What: chat.LiveRun, ID: "a", Name: "read"}),
		liveRec(chat.Live{What: chat.LiveResult, ID: "a", Name: "read", Text: "content"}),
		liveRec(chat.Live{What: chat.LiveCall, ID: "b", Name: "run", Args: `{}`}),
		liveRec(chat.Live{What: chat.LiveRun, ID: "b", Name: "run"}),
		liveRec(chat.Live{What: chat.LiveCall, ID: "c", Name: "rm", Args: `{}`}),
		liveRec(chat.Live{What: chat.LiveAsk, ID: "c", Name: "rm"}),
		liveRec(chat.Live{What: chat.LiveCall, ID: "d", Name: "rm", Args: `{}`}),
		liveRec(chat.Live{What: chat.LiveAsk, ID: "d", Name: "rm"}),
		liveRec(chat.Live{What: chat.LiveAnswer, ID: "d", Name: "rm"}),
		liveRec(chat.Live{What: chat.LiveCall, ID: "e", Name: "read", Args: `{}`}),
		liveRec(chat.Live{What: chat.LiveText, Text: "More."}),
	)
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := roles(log.Messages); got != "user,assistant,tool,tool,tool,tool,tool" {
		t.Fatalf("roles %s: %+v", got, log.Messages)
	}
	reply := log.Messages[1]
	if reply.Text() != "Let me look. More." || reply.Reasoning() != "think" || reply.End.Why != phase.EndCrashed ||
		reply.End.Text() != "interrupted: phasechat stopped unexpectedly" || len(reply.Calls()) != 5 {
		t.Fatalf("reply %+v", reply)
	}
	if _, ok := reply.Parts[2].(wire.ToolCall); !ok || reply.Parts[len(reply.Parts)-1] != (wire.Text{Text: "More."}) {
		t.Fatalf("the reply's parts are not in the order they came: %+v", reply.Parts)
	}
	want := []string{"content", "outcome unknown: phasechat stopped while it ran", phase.NotRunUnanswered.Text(), phase.NotRunDeclined.Text(), "not run: phasechat stopped before it started"}
	for i, w := range want {
		res := log.Messages[2+i]
		if res.Text() != w || res.ToolCallID != reply.Calls()[i].ID {
			t.Errorf("result %d: %q for %s, want %q", i, res.Text(), res.ToolCallID, w)
		}
	}
	if e := log.Messages[3].Ending; e.Status != phase.CallInterrupted || e.Interruption.Why != phase.CutCrashed {
		t.Errorf("the running call's ending %+v", e)
	}
	if e := log.Messages[4].Ending; e.Status != phase.CallDeclined || e.NotRun != phase.NotRunUnanswered {
		t.Errorf("the unanswered call's ending %+v", e)
	}
}

// The final reply supersedes the live records of its request; a request given up (a retry)
// leaves nothing; a failed request says it failed; a crash before any text still gives a reply,
// so the next user message never follows a user message.
func TestLiveRecordsAreSuperseded(t *testing.T) {
	final := wire.Message{Role: "assistant", Parts: wire.TextParts("whole")}
	path := writeRecords(t,
		userRecord("one"),
		liveRec(chat.Live{What: chat.LiveBegin}),
		liveRec(chat.Live{What: chat.LiveText, Text: "who"}),
		chat.Record{Message: &final},
		userRecord("two"),
		liveRec(chat.Live{What: chat.LiveBegin}),
		liveRec(chat.Live{What: chat.LiveText, Text: "given up"}),
		liveRec(chat.Live{What: chat.LiveEnd, End: phase.End{Why: phase.EndFailed, Note: "HTTP 500"}}),
		liveRec(chat.Live{What: chat.LiveBegin}),
		liveRec(chat.Live{What: chat.LiveText, Text: "retried"}),
		liveRec(chat.Live{What: chat.LiveEnd, End: phase.End{Why: phase.EndFailed, Note: "HTTP 502"}}),
		userRecord("three"),
		liveRec(chat.Live{What: chat.LiveBegin}),
	)
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range log.Messages {
		got = append(got, m.Role+":"+m.Text()+":"+string(m.End.Why))
	}
	want := "user:one:|assistant:whole:|user:two:|assistant:retried:failed|user:three:|assistant::crashed"
	if strings.Join(got, "|") != want {
		t.Fatalf("messages %s\nwant     %s", strings.Join(got, "|"), want)
	}
}

// Streamed text is gathered: many pieces make one record, the other kind of text begins
// another, and any other record first writes what was gathered.
func TestStreamedTextIsGathered(t *testing.T) {
	recs := []chat.Record{userRecord("q"), liveRec(chat.Live{What: chat.LiveBegin})}
	for range 100 {
		recs = append(recs, liveRec(chat.Live{What: chat.LiveReasoning, Text: "r"}))
	}
	for range 100 {
		recs = append(recs, liveRec(chat.Live{What: chat.LiveText, Text: "t"}))
	}
	recs = append(recs, liveRec(chat.Live{What: chat.LiveCall, ID: "a", Name: "n", Args: "{}"}))
	path := writeRecords(t, recs...)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 6 {
		t.Fatalf("%d lines for 200 pieces of text:\n%s", n, data)
	}
	log, err := Read(path)
	if err != nil || len(log.Messages) != 3 {
		t.Fatalf("Read: %v, %+v", err, log.Messages)
	}
	if r := log.Messages[1]; r.Text() != strings.Repeat("t", 100) || r.Reasoning() != strings.Repeat("r", 100) || len(r.Calls()) != 1 {
		t.Fatalf("reply %+v", r)
	}
}

// A reply streaming faster than the part's wait is queued in bounded parts: the writer never
// gathers more than partMost of it, and the log reads back the whole text.
func TestAFastReplyIsGatheredInBoundedParts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	w := create(t, path)
	w.Add(userRecord("q"))
	w.Add(liveRec(chat.Live{What: chat.LiveBegin}))
	piece := strings.Repeat("streamed text ", 73) // about 1 KB
	for range 1024 {
		w.Add(liveRec(chat.Live{What: chat.LiveText, Text: piece}))
		w.mu.Lock()
		gathered := cap(w.part.text)
		w.mu.Unlock()
		if gathered > 2*partMost {
			t.Fatalf("the writer gathers room for %d bytes of streamed text", gathered)
		}
	}
	w.Add(liveRec(chat.Live{What: chat.LiveText, Text: strings.Repeat(piece, 200)})) // one long delta
	w.mu.Lock()
	gathered := cap(w.part.text)
	w.mu.Unlock()
	if gathered > 2*partMost {
		t.Fatalf("after a long delta the writer keeps room for %d bytes", gathered)
	}
	closeLog(t, w)
	log, err := Read(path)
	if err != nil || len(log.Messages) != 2 {
		t.Fatalf("Read: %v, %d messages", err, len(log.Messages))
	}
	if got := log.Messages[1].Text(); got != strings.Repeat(piece, 1024+200) {
		t.Fatalf("read back %d bytes of the %d streamed", len(got), 1224*len(piece))
	}
}

// Sync returns once what was added before it is in the file, streamed text included.
func TestSyncWritesWhatCameBefore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sync.jsonl")
	w := create(t, path)
	defer closeLog(t, w)
	w.Add(userRecord("q"))
	w.Add(liveRec(chat.Live{What: chat.LiveBegin}))
	w.Add(liveRec(chat.Live{What: chat.LiveText, Text: "before the tool"}))
	w.Add(liveRec(chat.Live{What: chat.LiveRun, ID: "a", Name: "shell"}))
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Messages) < 2 || log.Messages[1].Text() != "before the tool" {
		t.Fatalf("after Sync the log reads %+v", log.Messages)
	}
}

// A log cut at any byte while a request is in flight reads back the reply as far as the
// records that are whole go, never a torn one.
func TestInFlightLogCutAnywhere(t *testing.T) {
	path := writeRecords(t,
		userRecord("q"),
		liveRec(chat.Live{What: chat.LiveBegin}),
		liveRec(chat.Live{What: chat.LiveText, Text: "Hello"}),
		liveRec(chat.Live{What: chat.LiveCall, ID: "a", Name: "shell", Args: `{"cmd":"sleep 30"}`}),
		liveRec(chat.Live{What: chat.LiveRun, ID: "a", Name: "shell"}),
	)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	begun := strings.Index(string(data), `"begin"`)
	begun += strings.IndexByte(string(data[begun:]), '\n') // the begin record is whole from here
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	for n := range len(data) + 1 {
		if err := os.WriteFile(cut, data[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		log, err := Read(cut)
		if err != nil || log.Skipped != nil {
			t.Fatalf("cut at %d: %v, skipped %v", n, err, log.Skipped)
		}
		if len(log.Messages) > 0 && log.Messages[len(log.Messages)-1].Role == "user" && n >= begun {
			t.Fatalf("cut at %d: a begun request left no reply: %+v", n, log.Messages)
		}
		for _, m := range log.Messages {
			if m.Role == "assistant" && m.HasCalls() && (len(log.Messages) != 3 || log.Messages[2].ToolCallID != "a") {
				t.Fatalf("cut at %d: a call without its answer: %+v", n, log.Messages)
			}
		}
	}
	whole, _ := Read(path)
	if !reflect.DeepEqual(roles(whole.Messages), "user,assistant,tool") {
		t.Fatalf("whole: %+v", whole.Messages)
	}
}

func roles(ms []wire.Message) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Role)
	}
	return strings.Join(out, ",")
}

// The final reply holds the text streamed for it: text gathered and not yet written when it
// comes is never written as live records.
func TestTheFinalReplyDropsItsGatheredText(t *testing.T) {
	final := &wire.Message{Role: "assistant", Parts: wire.TextParts("Let me look.")}
	final.AppendReasoning("think")
	path := writeRecords(t,
		userRecord("do things"),
		liveRec(chat.Live{What: chat.LiveBegin}),
		liveRec(chat.Live{What: chat.LiveText, Text: "Let me "}),
		liveRec(chat.Live{What: chat.LiveText, Text: "look."}),
		chat.Record{Message: final},
	)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"what":"text"`) {
		t.Fatalf("live text was written:\n%s", b)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := roles(log.Messages); got != "user,assistant" || log.Messages[1].Text() != "Let me look." {
		t.Fatalf("read %s: %+v", got, log.Messages)
	}
}

// The usage a request reported before a crash counts; once its usage record is written, that
// record alone does (the usage reported so far is in it).
func TestUsageReportedInFlightCountsOnce(t *testing.T) {
	early := &wire.Usage{PromptTokens: 10, TotalTokens: 10}
	whole := &wire.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}
	for _, tc := range []struct {
		name string
		recs []chat.Record
		want wire.Usage
	}{
		{"crashed mid-reply", []chat.Record{userRecord("q"), liveRec(chat.Live{What: chat.LiveBegin}),
			liveRec(chat.Live{What: chat.LiveUsage, Usage: early}), liveRec(chat.Live{What: chat.LiveText, Text: "a"})}, *early},
		{"crashed after the usage record", []chat.Record{userRecord("q"), liveRec(chat.Live{What: chat.LiveBegin}),
			liveRec(chat.Live{What: chat.LiveUsage, Usage: early}), {Usage: whole}}, *whole},
		{"final", []chat.Record{userRecord("q"), liveRec(chat.Live{What: chat.LiveBegin}),
			liveRec(chat.Live{What: chat.LiveUsage, Usage: early}), {Usage: whole},
			{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("a")}}}, *whole},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log, err := Read(writeRecords(t, tc.recs...))
			if err != nil {
				t.Fatal(err)
			}
			if !log.UsageReported || log.Usage != tc.want {
				t.Fatalf("usage %+v (reported %v), want %+v", log.Usage, log.UsageReported, tc.want)
			}
		})
	}
}
