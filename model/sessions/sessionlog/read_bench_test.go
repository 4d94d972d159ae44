package sessionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/stream/wire"
)

// longLog is a session log of turns turns, each a user question, an assistant reply of about
// 10 KB (markdown, some escapes) with a tool call, the tool's result and a usage record, as
// Writer writes them.
func longLog(tb testing.TB, turns int) []byte { return longLogPlaced(tb, turns, 0) }

// longLogPlaced is longLog with each reply's call shown where after bytes of its text follow.
func longLogPlaced(tb testing.TB, turns, after int) []byte {
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
		write(Record{Type: "message", Message: &wire.Message{Role: "user", Content: fmt.Sprintf("Question %d: how does the cache work?", n)}})
		reply := strings.Repeat(para+"\n\n", 10)
		m := &wire.Message{Role: "assistant", Content: reply,
			Reasoning: "I should look at the file first.", ReasoningField: wire.FieldReasoningContent,
			ToolCalls: []wire.ToolCall{{ID: fmt.Sprintf("call_%d", n), Name: "read_file", Arguments: `{"path":"src/main.go"}`, TextAfter: after}}}
		write(Record{Type: "message", TextAfter: textAfterOf(m), Message: m})
		write(Record{Type: "message", Message: &wire.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", n), Name: "read_file",
			Content: "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n"}})
		write(Record{Type: "usage", Usage: &wire.Usage{PromptTokens: 1000 + n, CompletionTokens: 2500, TotalTokens: 3500 + n}})
	}
	return b.Bytes()
}

// BenchmarkReadLongLog is resuming a 1,000-turn log of about 10 MB: decoding every record.
func BenchmarkReadLongLog(b *testing.B) { benchmarkRead(b, longLog(b, 1000)) }

// BenchmarkReadLongLogWithPlaces is BenchmarkReadLongLog with each reply's card shown midway
// through its text, so that every reply's record carries text_after.
func BenchmarkReadLongLogWithPlaces(b *testing.B) { benchmarkRead(b, longLogPlaced(b, 1000, 5000)) }

func benchmarkRead(b *testing.B, data []byte) {
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

// recordLines are lines the one-pass reader must read as json.Unmarshal does, or leave to it.
func recordLines(tb testing.TB) []string {
	lines := strings.Split(string(longLog(tb, 3)), "\n")
	lines = append(lines, strings.Split(string(longLogPlaced(tb, 2, 700)), "\n")...)
	return append(lines, userLine, callLine, toolLine, usageLine,
		`{"type":"message","message":{"role":"user","content":"no time"}}`,
		`{"type":"message","time":"2026-12-01T08:00:00.5+01:00","message":{"role":"user","content":"zone"}}`,
		`{"type":"message","time":"not a time","message":{"role":"user"}}`,
		`{"type":"message","time":"2026-12-01T08:00:00Z","message":{"role":"user"},"usage":{"prompt_tokens":1}}`,
		`{"type":"message","message":{"role":5}}`,
		`{"type":"message","message":{"role":"user"}} trailing`,
		`{"type":"usage","time":"2026-12-01T08:00:00Z","usage":{"prompt_tokens":0,"completion_tokens":12,"total_tokens":12}}`,
		`{"type":"usage","usage":{"prompt_tokens":999999999999999999,"completion_tokens":1,"total_tokens":1}}`+"\r\n",
		`{"type":"usage","usage":{"prompt_tokens":9999999999999999999,"completion_tokens":1,"total_tokens":1}}`,
		`{"type":"usage","usage":{"prompt_tokens":01,"completion_tokens":1,"total_tokens":1}}`,
		`{"type":"usage","usage":{"prompt_tokens":-1,"completion_tokens":1,"total_tokens":0}}`,
		`{"type":"usage","usage":{"prompt_tokens":1.5,"completion_tokens":1,"total_tokens":1}}`,
		`{"type":"usage","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}} trailing`,
		`{"type":"usage","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3},"message":{"role":"user"}}`,
		`{"type":"usage","usage":{"completion_tokens":2,"prompt_tokens":1,"total_tokens":3}}`,
		`{"type":"usage","time":"2026-12-01T08:00:00Z""usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
		placesLine("[16,4]"), placesLine("[0]"), placesLine("[-1,4]"), placesLine("[16,]"), placesLine("[,4]"),
		placesLine("[01,4]"), placesLine("[16 ,4]"), placesLine(`["16"]`), placesLine("null"), placesLine("[]"),
		placesLine("[99999999999999999999]"), placesLine("[999999999999999999,1]"), placesLine("[16,4]]"),
		`{"type":"message","text_after":[3],"message":{"role":"user","content":"no time"}}`,
		`{"type":"message","time":"2026-12-01T08:00:00Z","text_after":[3]"message":{"role":"user"}}`,
		`{"type":"message","time":"2026-12-01T08:00:00Z","ended":"stopped by the user","text_after":[3],"message":{"role":"assistant","content":"abc","tool_calls":[{"id":"a","function":{"name":"now"}}]}}`,
		`{"type":"message","time":"2026-12-01T08:00:00Z","end":{"why":"failed","note":"HTTP 500"},"message":{"role":"assistant","content":"abc"}}`,
		`{"type":"message","end":{"why":"bogus"},"message":{"role":"assistant","content":"abc"}}`,
		`{"type":"message","call":{"status":"interrupted","cut":"user","stage":"running"},"message":{"role":"tool","tool_call_id":"a","content":"stopped by the user"}}`,
		`{"type":"message","call":{"status":"done"},"message":{"role":"tool","tool_call_id":"a","content":"x"}}`,
		`{"type":"message","message":{"role":"tool","tool_call_id":"a","content":"The user declined to run this tool."}}`)
}

// checkRecordLine holds the one-pass reader to json.Unmarshal on line; it reports whether
// the line was read in one pass.
func checkRecordLine(tb testing.TB, line string) bool {
	var got Record
	if !readRecord([]byte(line), &got) {
		return false
	}
	var want Record
	if err := json.Unmarshal([]byte(line), &want); err != nil {
		tb.Fatalf("%s: read in one pass, but json.Unmarshal says %v", line, err)
	}
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("%s:\none pass %+v\njson     %+v", line, got, want)
	}
	return true
}

// TestRecordsReadAsJSONDoes holds the one-pass reader of message and usage records to
// json.Unmarshal's reading of the same lines.
func TestRecordsReadAsJSONDoes(t *testing.T) {
	fast := 0
	for _, line := range recordLines(t) {
		if checkRecordLine(t, line) {
			fast++
		}
	}
	if fast < 16 {
		t.Fatalf("only %d lines were read in one pass", fast)
	}
}

// FuzzReadRecord holds the one-pass reader to json.Unmarshal on any line, and a log of the
// line to the cards' places a resumed reply can show (each within the text, none before an
// earlier card's) and to the ends and call endings a version writes.
func FuzzReadRecord(f *testing.F) {
	for _, line := range recordLines(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		checkRecordLine(t, line)
		log, _ := decode(strings.NewReader(line), "log")
		for _, m := range log.Messages {
			if !m.End.Whole() && m.End.Text() == string(m.End.Why) || m.End.Why != "" && m.Role != "assistant" {
				t.Fatalf("%s: read an end no version writes: %+v", line, m.End)
			}
			if st := m.Ending.Status; st != "" && (!st.Failed() || m.Role != "tool") {
				t.Fatalf("%s: read a call ending no version writes: %+v", line, m.Ending)
			}
			most := len(m.Content)
			for _, tc := range m.ToolCalls {
				if tc.TextAfter < 0 || tc.TextAfter > most {
					t.Fatalf("%s: TextAfter %d of a call after one with %d (text of %d bytes)", line, tc.TextAfter, most, len(m.Content))
				}
				most = tc.TextAfter
			}
		}
	})
}
