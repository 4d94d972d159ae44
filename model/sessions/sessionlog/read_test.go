package sessionlog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

const (
	userLine  = `{"type":"message","message":{"role":"user","content":"what time is it"}}`
	callLine  = `{"type":"message","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"now","arguments":"{}"}}]}}`
	toolLine  = `{"type":"message","message":{"role":"tool","content":"12:00","tool_call_id":"call_1","name":"now"}}`
	usageLine = `{"type":"usage","usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
)

func writeLog(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRead(t *testing.T) {
	user := wire.Message{Role: "user", Parts: wire.TextParts("what time is it")}
	call := wire.Message{Role: "assistant", Parts: wire.ReplyParts("", "", []wire.ToolCall{{ID: "call_1", Name: "now", Arguments: "{}"}})}
	tool := wire.Message{Role: "tool", Parts: wire.TextParts("12:00"), ToolCallID: "call_1", Name: "now"}
	tests := []struct {
		name     string
		text     string
		messages []wire.Message
		usage    wire.Usage
		cutOff   bool
	}{
		{"empty", "", nil, wire.Usage{}, false},
		{"a turn", strings.Join([]string{userLine, callLine, usageLine, toolLine, usageLine}, "\n") + "\n",
			[]wire.Message{user, call, tool}, wire.Usage{PromptTokens: 6, CompletionTokens: 4, TotalTokens: 10}, false},
		{"blank lines", "\n" + userLine + "\n\n  \n", []wire.Message{user}, wire.Usage{}, false},
		{"last line complete but unterminated", userLine + "\n" + toolLine, []wire.Message{user, tool}, wire.Usage{}, false},
		{"last line cut off", userLine + "\n" + callLine[:40], []wire.Message{user}, wire.Usage{}, true},
		{"only line cut off", userLine[:10], nil, wire.Usage{}, true},
		{"cut off after a usage", usageLine + "\n" + toolLine[:len(toolLine)-1], nil, wire.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, err := Read(writeLog(t, tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(log.Messages, tt.messages) || log.Usage != tt.usage || log.CutOff != tt.cutOff {
				t.Fatalf("Read = %+v\nwant messages %+v usage %+v cutOff %v", log, tt.messages, tt.usage, tt.cutOff)
			}
		})
	}
}

// A line other than the last that is not a record is skipped, its number kept and said, and
// the records around it are read.
func TestReadBadLine(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
	}{
		{"not JSON", userLine + "\n" + "hello\n" + toolLine + "\n", 2},
		{"cut in the middle", userLine + "\n" + callLine[:40] + "\n" + toolLine + "\n", 2},
		{"unknown type", `{"type":"note"}` + "\n", 1},
		{"message without role", `{"type":"message","message":{"content":"x"}}` + "\n", 1},
		{"usage without usage", "\n\n" + `{"type":"usage"}` + "\n" + userLine + "\n", 3},
		{"JSON of another kind", userLine + "\n[1,2]\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, tt.text)
			log, err := Read(path)
			if err != nil || !reflect.DeepEqual(log.Skipped, []int{tt.line}) || log.CutOff {
				t.Fatalf("Read: %v, skipped %v (cut off %v), want line %d skipped", err, log.Skipped, log.CutOff, tt.line)
			}
			if want := "skipped 1 unreadable record (line " + strconv.Itoa(tt.line) + ")"; log.SkippedNote() != want {
				t.Fatalf("note %q, want %q", log.SkippedNote(), want)
			}
			if strings.Contains(tt.text, toolLine) && (len(log.Messages) == 0 || log.Messages[len(log.Messages)-1].Role != "tool") {
				t.Fatalf("messages %+v: the record after the bad line was not read", log.Messages)
			}
		})
	}
}

func TestReadMissingFile(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "none.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "cannot open the session log") {
		t.Fatalf("error %v", err)
	}
}

// What the engine records reads back as the same messages and summed usage.
func TestWriteThenRead(t *testing.T) {
	msgs := []wire.Message{
		{Role: "user", Parts: wire.TextParts("list and read")},
		{Role: "assistant", Parts: wire.ReplyParts("", "On it.", []wire.ToolCall{
			{Index: 0, ID: "a", Name: "list_dir", Arguments: `{"path":"."}`},
			{Index: 1, ID: "b", Name: "read_file", Arguments: `{"path":"x\u2028y"}`}})},
		{Role: "tool", ToolCallID: "a", Name: "list_dir", Parts: wire.TextParts("x\n")},
		{Role: "tool", ToolCallID: "b", Name: "read_file", Parts: wire.TextParts("line1\nline2 \"quoted\" ␛[31m")},
		{Role: "assistant", Parts: wire.TextParts("Done.")},
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	for i := range msgs {
		w.Add(chat.Record{Message: &msgs[i]})
		u := wire.Usage{PromptTokens: i, CompletionTokens: 1, TotalTokens: i + 1}
		w.Add(chat.Record{Usage: &u})
	}
	closeLog(t, w)
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(log.Messages, msgs) {
		t.Fatalf("read back\n%+v\nwant\n%+v", log.Messages, msgs)
	}
	if want := (wire.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}); log.Usage != want || log.CutOff {
		t.Fatalf("usage %+v cutOff %v, want %+v", log.Usage, log.CutOff, want)
	}
}

// Lines longer than the reader's buffer are read whole, and the lines after them too.
func TestReadLinesLongerThanTheBuffer(t *testing.T) {
	big := strings.Repeat("long \"line\" ", 3*readBuffer/12)
	line, err := json.Marshal(Record{Type: "message", Message: &wire.Message{Role: "user", Parts: wire.TextParts(big)}})
	if err != nil {
		t.Fatal(err)
	}
	text := string(line) + "\n" + userLine + "\n" + string(line) + "\n" + string(line[:2*readBuffer])
	log, err := Read(writeLog(t, text))
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Messages) != 3 || log.Messages[0].Text() != big || log.Messages[1].Text() != "what time is it" || log.Messages[2].Text() != big || !log.CutOff {
		t.Fatalf("read %d messages (cut off %v), want the long one, the user's, the long one and a cut-off line", len(log.Messages), log.CutOff)
	}
}
