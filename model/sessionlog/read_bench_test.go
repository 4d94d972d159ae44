package sessionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/stream"
)

// longLog is a session log of turns turns, each a user question, an assistant reply of about
// 10 KB (markdown, some escapes) with a tool call, the tool's result and a usage record, as
// Writer writes them.
func longLog(tb testing.TB, turns int) []byte {
	var b bytes.Buffer
	at := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	write := func(r Record) {
		r.Time = &at
		line, err := json.Marshal(r)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	write(Record{Type: "session", Session: &Header{Model: "gpt-4o", Endpoint: "https://api.openai.com/v1"}})
	para := strings.Repeat("The renderer keeps every complete block — “quoted” text, `code` and \"escapes\"\tand tabs. ", 9)
	for n := range turns {
		write(Record{Type: "message", Message: &stream.Message{Role: "user", Content: fmt.Sprintf("Question %d: how does the cache work?", n)}})
		reply := strings.Repeat(para+"\n\n", 10)
		write(Record{Type: "message", Message: &stream.Message{Role: "assistant", Content: reply,
			Reasoning: "I should look at the file first.", ReasoningField: stream.FieldReasoningContent,
			ToolCalls: []stream.ToolCall{{ID: fmt.Sprintf("call_%d", n), Name: "read_file", Arguments: `{"path":"src/main.go"}`}}}})
		write(Record{Type: "message", Message: &stream.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", n), Name: "read_file",
			Content: "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n"}})
		write(Record{Type: "usage", Usage: &stream.Usage{PromptTokens: 1000 + n, CompletionTokens: 2500, TotalTokens: 3500 + n}})
	}
	return b.Bytes()
}

// BenchmarkReadLongLog is resuming a 1,000-turn log of about 10 MB: decoding every record.
func BenchmarkReadLongLog(b *testing.B) {
	data := longLog(b, 1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		start := processCPU(b)
		log, err := decode(bytes.NewReader(data), "log")
		if err != nil || len(log.Messages) != 3000 {
			b.Fatal(len(log.Messages), err)
		}
		cpu += processCPU(b) - start
	}
	b.ReportMetric(float64(len(data))/1e6, "MB")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// TestMessageRecordsReadAsJSONDoes holds the one-pass reader of message records to
// json.Unmarshal's reading of the same lines.
func TestMessageRecordsReadAsJSONDoes(t *testing.T) {
	lines := strings.Split(string(longLog(t, 3)), "\n")
	lines = append(lines, userLine, callLine, toolLine, usageLine,
		`{"type":"message","message":{"role":"user","content":"no time"}}`,
		`{"type":"message","time":"2026-12-01T08:00:00.5+01:00","message":{"role":"user","content":"zone"}}`,
		`{"type":"message","time":"not a time","message":{"role":"user"}}`,
		`{"type":"message","time":"2026-12-01T08:00:00Z","message":{"role":"user"},"usage":{"prompt_tokens":1}}`,
		`{"type":"message","message":{"role":5}}`,
		`{"type":"message","message":{"role":"user"}} trailing`)
	fast := 0
	for _, line := range lines {
		var got Record
		if !readMessageRecord([]byte(line), &got) {
			continue
		}
		fast++
		var want Record
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatalf("%s: read in one pass, but json.Unmarshal says %v", line, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\none pass %+v\njson     %+v", line, got, want)
		}
	}
	if fast < 12 {
		t.Fatalf("only %d lines were read in one pass", fast)
	}
}
