package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// --log FILE goes on with the conversation after /new (and after switching to a saved one):
// each begins with a header that starts another conversation, and reading the log back gives
// the one on screen.
func TestLogFileFollowsNewConversations(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	logPath := filepath.Join(t.TempDir(), "chat.jsonl")
	conv, err := openConversation(&Settings{LogPath: logPath}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	rec := conv.Recorder()
	rec.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("before")}})
	rec.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("first answer")}})
	rec = conv.New()
	rec.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("after new")}})
	rec.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("second answer")}})
	first := conv.ended[0].ID()
	if err := conv.ended[0].Close(); err != nil { // closing in the background: wait for the index
		t.Fatal(err)
	}
	res, err := conv.Resume(first)
	if err != nil {
		t.Fatal(err)
	}
	res.Log.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("back again")}})
	if err := conv.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := sessionlog.Read(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range log.Messages {
		got = append(got, m.Text())
	}
	if strings.Join(got, "|") != "before|first answer|back again" {
		t.Fatalf("the log reads back as %q, want the resumed conversation", got)
	}
	raw := readFile(t, logPath)
	if !strings.Contains(raw, `"after new"`) || !strings.Contains(raw, `"second answer"`) || strings.Count(raw, `"new":true`) != 2 {
		t.Fatalf("the log lost the conversation begun with /new:\n%s", raw)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestAStoreThatCannotBeOpenedDoesNotStopTheChat: saving is on, but the data folder cannot
// be made (a file is in its way): the conversation goes on unsaved, and says so.
func TestAStoreThatCannotBeOpenedDoesNotStopTheChat(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", blocker)
	c, err := openConversation(&Settings{}, sessionlog.Header{}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.session != nil || !strings.Contains(c.notice, "not being saved") {
		t.Fatalf("session %v, notice %q", c.session, c.notice)
	}
	if _, err := openConversation(&Settings{Continue: true}, sessionlog.Header{}, ""); err == nil {
		t.Fatal("--continue without a store did not fail")
	}
}

// --resume of a log with a damaged line resumes what could be read and says what was skipped.
func TestResumeSaysSkippedRecords(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	logPath := filepath.Join(t.TempDir(), "chat.jsonl")
	text := `{"type":"message","message":{"role":"user","content":"hi"}}` + "\n" + "garbled\n" +
		`{"type":"message","message":{"role":"assistant","content":"hello"}}` + "\n"
	if err := os.WriteFile(logPath, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	conv, err := openConversation(&Settings{Resume: logPath, NoSave: true}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	defer conv.Close()
	if want := "The log is damaged: skipped 1 unreadable record (line 2)."; !strings.Contains(conv.Notice(), want) {
		t.Fatalf("notice %q lacks %q", conv.Notice(), want)
	}
}

// --log FILE names the user's file: closing a conversation whose streamed reply the sessions
// folder's log would fold leaves it the same file, with the streamed steps still in it.
func TestLogFileIsOnlyAppendedTo(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	logPath := filepath.Join(t.TempDir(), "chat.jsonl")
	conv, err := openConversation(&Settings{LogPath: logPath, NoSave: true}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(logPath)
	if err != nil {
		t.Fatal(err)
	}
	rec := conv.Recorder()
	rec.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("hi")}})
	rec.Add(chat.Record{Live: &chat.Live{What: chat.LiveBegin}})
	rec.Add(chat.Record{Live: &chat.Live{What: chat.LiveText, Text: "Hello "}})
	if err := conv.log.Sync(); err != nil {
		t.Fatal(err)
	}
	rec.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("Hello there.")}})
	if err := conv.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Fatal("closing put another file in the place of the --log file")
	}
	if raw := readFile(t, logPath); !strings.Contains(raw, `"type":"live"`) {
		t.Fatalf("the --log file was rewritten:\n%s", raw)
	}
}

// A log continued from a file gives the chat what each of its finished turns used.
func TestResumedLogGivesItsTallies(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", filepath.Join(t.TempDir(), "data"))
	path := filepath.Join(t.TempDir(), "old.jsonl")
	w := sessionlog.Later(path, nil)
	w.Head(sessionlog.Header{Model: "m"})
	w.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("hi")}})
	w.Add(chat.Record{Usage: &wire.Usage{PromptTokens: 12, CompletionTokens: 3, TotalTokens: 15}})
	w.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("hello")}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	conv, err := openConversation(&Settings{Resume: path, NoSave: true}, sessionlog.Header{Model: "m"}, "host")
	if err != nil {
		t.Fatal(err)
	}
	defer conv.Close()
	if got := conv.Tallies(); len(got) != 1 || got[0].Reply != 1 || got[0].Usage.PromptTokens != 12 || got[0].Model != "m" {
		t.Fatalf("tallies %+v", got)
	}
}
