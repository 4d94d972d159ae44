package sessionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// longLog is a session log of turns turns, each a user question, an assistant reply of about
// 10 KB (markdown, some escapes) with a tool call, the tool's result and a usage record, as
// Writer writes them.
func longLog(tb testing.TB, turns int) []byte { return longLogPlaced(tb, turns, 0) }

// longLogPlaced is longLog with each reply's call shown where after bytes of its text follow.
func longLogPlaced(tb testing.TB, turns, after int) []byte {
	return longLogWritten(tb, turns, after, false)
}

// longLogWritten is longLogPlaced, written as versions before parts wrote it when old is true
// (each message in the API's shape, each card's place in text_after).
func longLogWritten(tb testing.TB, turns, after int, old bool) []byte {
	var b bytes.Buffer
	at := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	write := func(r Record) {
		r.Time = &at
		line, err := json.Marshal(r)
		if m := r.Message; old && m != nil {
			var msg []byte
			msg, err = json.Marshal(m)
			places := ""
			if m.HasCalls() {
				places = fmt.Sprintf(`"text_after":[%d],`, after)
			}
			line = fmt.Appendf(nil, `{"type":"message","time":"2026-12-01T08:00:00Z",%s"message":%s}`, places, msg)
		}
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	write(Record{Type: "session", Session: &Header{Model: "gpt-4o", Endpoint: "https://api.openai.com/v1"}})
	para := strings.Repeat("The renderer keeps every complete block — “quoted” text, `code` and \"escapes\"\tand tabs. ", 9)
	for n := range turns {
		write(Record{Type: "message", Message: &wire.Message{Role: "user", Parts: wire.TextParts(fmt.Sprintf("Question %d: how does the cache work?", n))}})
		reply := strings.Repeat(para+"\n\n", 10)
		call := wire.ToolCall{ID: fmt.Sprintf("call_%d", n), Name: "read_file", Arguments: `{"path":"src/main.go"}`}
		m := &wire.Message{Role: "assistant", ReasoningField: wire.FieldReasoningContent}
		m.AppendReasoning("I should look at the file first.")
		m.AppendText(reply[:len(reply)-after])
		m.Parts = append(m.Parts, call)
		m.AppendText(reply[len(reply)-after:])
		write(Record{Type: "message", Message: m})
		write(Record{Type: "message", Message: &wire.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", n), Name: "read_file",
			Parts: wire.TextParts("package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n")}})
		write(Record{Type: "usage", Usage: &wire.Usage{PromptTokens: 1000 + n, CompletionTokens: 2500, TotalTokens: 3500 + n}})
	}
	return b.Bytes()
}

// BenchmarkReadLongLog is resuming a 1,000-turn log of about 10 MB: decoding every record.
func BenchmarkReadLongLog(b *testing.B) { benchmarkRead(b, longLog(b, 1000)) }

// BenchmarkReadLongLogWithPlaces is BenchmarkReadLongLog with each reply's card shown midway
// through its text, so that every reply has two text parts.
func BenchmarkReadLongLogWithPlaces(b *testing.B) { benchmarkRead(b, longLogPlaced(b, 1000, 5000)) }

// BenchmarkReadOldLongLog is BenchmarkReadLongLogWithPlaces written as versions before parts
// wrote it: every reply's record carries text_after.
func BenchmarkReadOldLongLog(b *testing.B) { benchmarkRead(b, longLogWritten(b, 1000, 5000, true)) }

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
	lines = append(lines, strings.Split(string(longLogWritten(tb, 2, 700, true)), "\n")...)
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
		`{"type":"message","message":{"role":"tool","tool_call_id":"a","content":"The user declined to run this tool."}}`,
		partsLine(`[{"type":"text","text":"a\"b\\c\/d\b\f\n\r\t é \u00e9 \ud83d\ude00 \ud83d \udc00x \uD83D\uDE00"}]`),
		partsLine("[{\"type\":\"text\",\"text\":\"bad \xff utf-8 \xe2\x82\"},{\"type\":\"reasoning\",\"text\":\"r\"},{\"type\":\"text\",\"text\":\"more\"}]"),
		partsLine(`[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"call","id":"c","name":"n","arguments":"{}"},{"type":"call"}]`),
		partsLine(`[{"type":"image","text":"x"},{"type":"text"},{"text":"no type"}]`),
		partsLine(`[]`), partsLine(`null`), partsLine(`{}`), partsLine(`[{"type":"text","text":1}]`),
		partsLine(`[{"type":"text","text":"a\x"}]`), partsLine(`[{"type":"text","text":"a\u12"}]`),
		partsLine(`[{"type":"text","text":"a\u12zz"}]`), partsLine("[{\"type\":\"text\",\"text\":\"tab\tinside\"}]"),
		partsLine(`[{"type":"text","Text":"case"}]`), partsLine(`[{"type":"text","text":"a"} ]`),
		partsLine(`[{"type":"call","id":"c","extra_content":{"x":1}}]`),
		`{"type":"message","message":{"role":"assistant","PARTS":[{"type":"text","text":"upper"}]}}`,
		`{"type":"message","message":{"role":"assistant","partſ":[{"type":"text","text":"long s"}]}}`,
		`{"type":"message","message":{"role":"assistant","parts":[{"type":"text","text":"one"}],"parts":[{"type":"text","text":"two"}]}}`,
		`{"type":"message","message":{"role":"assistant","content":"old","parts":[{"type":"text","text":"new"}]}}`,
		`{"type":"message","message":{"role":"assistant","parts":[],"native_reasoning":{"wire":"anthropic"}}}`,
		`{"type":"message","message":{"role":"tool","parts":[{"type":"text","text":"ok"}],"tool_call_id":"c","name":"n","reasoning_field":"reasoning"}}`,
		`{"type":"message","message":{"role":"a,b","parts":[{"type":"text","text":"comma"}]}}`,
		`{"type":"message","text_after":[3],"message":{"role":"assistant","parts":[{"type":"text","text":"abcdef"},{"type":"call","id":"c"}]}}`,
		`{"type":"message","message":{"name":"n","role":"user","parts":[{"type":"text","text":"any order"}]}}`,
		`{"type":"live","time":"2026-12-01T08:00:00Z","live":{"what":"begin"}}`,
		`{"type":"live","time":"2026-12-01T08:00:00Z","live":{"what":"text","text":"a \"quoted\" – é\n"}}`,
		`{"type":"live","live":{"what":"call","id":"c","name":"read","args":"{\"p\":1}"}}`,
		`{"type":"live","live":{"what":"answer","id":"c","name":"rm","allow":true}}`,
		`{"type":"live","live":{"what":"answer","id":"c","allow":false}}`,
		`{"type":"live","live":{"what":"answer","id":"c","allow":truex}}`,
		`{"type":"live","live":{"what":"result","id":"c","text":"x","call":{"status":"error"}}}`,
		`{"type":"live","live":{"what":"end","end":{"why":"failed","note":"HTTP 500"}}}`,
		`{"type":"live","live":{"what":"text","text":"a","text":"b"}}`,
		`{"type":"live","live":{"what":"text","TEXT":"case"}}`,
		`{"type":"live","live":{"what":"text","text":"a"},"usage":{"prompt_tokens":1}}`,
		`{"type":"live","live":{"what":"text","text":"a"}} trailing`,
		`{"type":"live","live":{"what":"text","text":5}}`,
		`{"type":"live","live":{}}`,
		`{"type":"live","live":null}`)
}

// partsLine is a message record written as parts, around raw parts.
func partsLine(raw string) string {
	return `{"type":"message","time":"2026-12-01T08:00:00Z","message":{"role":"assistant","parts":` + raw + `}}`
}

// checkRecordLine holds the one-pass reader to json.Unmarshal on line; it reports whether
// the line was read in one pass.
func checkRecordLine(tb testing.TB, line string) bool {
	var got Record
	if !readRecord([]byte(line), &got) {
		return false
	}
	if got.Live != nil && got.Live.raw != nil { // streamed text is read when its request lands
		got.Live.Text, got.Live.raw = writtenString(got.Live.raw), nil
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
// line to the parts a resumed reply can show (no empty part, no two text parts in a row,
// calls in the order of their index) and to the ends and call endings a version writes.
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
			checkParts(t, line, m.Parts)
		}
	})
}

// checkParts fails unless parts are as a log's reader gives them: no empty text or reasoning,
// no two parts of text (or of reasoning) in a row, calls in the order of their index.
func checkParts(t *testing.T, line string, parts []wire.Part) {
	t.Helper()
	last := 0
	for i, p := range parts {
		switch p := p.(type) {
		case wire.Text:
			if _, again := at(parts, i+1).(wire.Text); p.Text == "" || again {
				t.Fatalf("%s: text part %d of %q", line, i, parts)
			}
		case wire.Reasoning:
			if _, again := at(parts, i+1).(wire.Reasoning); p.Text == "" || again {
				t.Fatalf("%s: reasoning part %d of %q", line, i, parts)
			}
		case wire.ToolCall:
			if p.Index < last {
				t.Fatalf("%s: call %d after call %d", line, p.Index, last)
			}
			last = p.Index
		}
	}
}

// at is parts[i], or nil past the end.
func at(parts []wire.Part, i int) wire.Part {
	if i < len(parts) {
		return parts[i]
	}
	return nil
}

// BenchmarkReadLongLiveLog is resuming a 1,000-turn log written through Writer and never
// closed (the process was killed): each turn's live records (its start, reasoning, text, call,
// the tool's start and result) before its final messages, every line checksummed.
func BenchmarkReadLongLiveLog(b *testing.B) { benchmarkRead(b, longLiveLog(b, false)) }

// BenchmarkReadLongTornLog is BenchmarkReadLongLiveLog's log with the first half of a last
// line, as a kill in the middle of a write leaves it.
func BenchmarkReadLongTornLog(b *testing.B) {
	log := longLiveLog(b, false)
	last := bytes.LastIndexByte(log[:len(log)-1], '\n') + 1
	torn := append(log, log[last:last+(len(log)-last)/2]...)
	benchmarkRead(b, torn)
}

// BenchmarkReadLongFoldedLog is BenchmarkReadLongLiveLog's log closed cleanly: folded, it
// holds each reply once.
func BenchmarkReadLongFoldedLog(b *testing.B) { benchmarkRead(b, longLiveLog(b, true)) }

// longLiveLog is the log of BenchmarkReadLongLiveLog, as the writer's Close leaves it when
// closed, else as a kill leaves it.
func longLiveLog(b *testing.B, closed bool) []byte {
	path := filepath.Join(b.TempDir(), "live.jsonl")
	w, err := createNow(path)
	if err != nil {
		b.Fatal(err)
	}
	para := strings.Repeat("The renderer keeps every complete block — “quoted” text, `code` and \"escapes\"\tand tabs. ", 9)
	for n := range 1000 {
		id := fmt.Sprintf("call_%d", n)
		w.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts(fmt.Sprintf("Question %d: how does the cache work?", n))}})
		w.Add(chat.Record{Live: &chat.Live{What: chat.LiveBegin}})
		w.Add(chat.Record{Live: &chat.Live{What: chat.LiveReasoning, Text: "I should look at the file first."}})
		for range 10 {
			w.Add(chat.Record{Live: &chat.Live{What: chat.LiveText, Text: para + "\n\n"}})
		}
		w.Add(chat.Record{Live: &chat.Live{What: chat.LiveCall, ID: id, Name: "read_file", Args: `{"path":"src/main.go"}`}})
		w.Add(chat.Record{Live: &chat.Live{What: chat.LiveRun, ID: id, Name: "read_file"}})
		w.Add(chat.Record{Live: &chat.Live{What: chat.LiveResult, ID: id, Name: "read_file", Text: "package main\n"}})
		m := &wire.Message{Role: "assistant"}
		m.AppendReasoning("I should look at the file first.")
		m.AppendText(strings.Repeat(para+"\n\n", 10))
		m.Parts = append(m.Parts, wire.ToolCall{ID: id, Name: "read_file", Arguments: `{"path":"src/main.go"}`})
		w.Add(chat.Record{Message: m})
		w.Add(chat.Record{Message: &wire.Message{Role: "tool", ToolCallID: id, Name: "read_file", Parts: wire.TextParts("package main\n")}})
		w.Add(chat.Record{Usage: &wire.Usage{PromptTokens: 1000 + n, CompletionTokens: 2500, TotalTokens: 3500 + n}})
	}
	if err := w.Sync(); err != nil {
		b.Fatal(err)
	}
	killed, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if !closed {
		return killed
	}
	folded, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return folded
}
