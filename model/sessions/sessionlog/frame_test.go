package sessionlog

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// crashLog writes a log of one turn with a tool call through Writer and returns its bytes and
// the messages it holds.
func crashLog(t testing.TB) ([]byte, []wire.Message) {
	msgs := []wire.Message{
		{Role: "user", Parts: wire.TextParts("what time is it — ünïcode ✓")},
		{Role: "assistant", Parts: []wire.Part{wire.Text{Text: "Let me look… \"quoted\"\n"}, wire.ToolCall{ID: "call_1", Name: "now", Arguments: `{"tz":"UTC"}`}}},
		{Role: "tool", Parts: wire.TextParts("12:00"), ToolCallID: "call_1", Name: "now"},
		{Role: "assistant", Parts: wire.TextParts("It is noon ☀ — \\ and \u2028 too.")},
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w, err := createNow(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range msgs {
		w.Add(chat.Record{Message: &msgs[i]})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, msgs
}

// Every line Writer writes carries a checksum that Read checks.
func TestWrittenLinesAreSealed(t *testing.T) {
	data, _ := crashLog(t)
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if _, sealed, good := unseal(bytes.Clone(line)); !sealed || !good {
			t.Fatalf("line %d sealed %v good %v: %s", i+1, sealed, good, line)
		}
	}
}

// A log cut at any byte of its last line (a crash mid-write) reads as the records before it,
// the cut line dropped and said, never misread; and a log appended to after that cut reads
// whole again.
func TestTornLastLineAtEveryOffset(t *testing.T) {
	data, msgs := crashLog(t)
	start := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	path := filepath.Join(t.TempDir(), "cut.jsonl")
	for cut := start; cut <= len(data); cut++ {
		if err := os.WriteFile(path, data[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		log, err := Read(path)
		want := msgs[:len(msgs)-1]
		whole := cut == len(data) || cut == len(data)-1 // only the newline missing
		if whole {
			want = msgs
		}
		if err != nil || !reflect.DeepEqual(log.Messages, want) || log.Skipped != nil || log.CutOff != (cut > start && !whole) {
			t.Fatalf("cut at %d of %d: %v, %d messages, cut off %v, skipped %v", cut, len(data), err, len(log.Messages), log.CutOff, log.Skipped)
		}
		w, err := createNow(path)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		w.Add(userRecord("resumed"))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		after, err := Read(path)
		want = append(append([]wire.Message(nil), want...), wire.Message{Role: "user", Parts: wire.TextParts("resumed")})
		if err != nil || !reflect.DeepEqual(after.Messages, want) || after.CutOff || after.Skipped != nil {
			t.Fatalf("cut at %d, then appended: %v, %d messages, cut off %v, skipped %v", cut, err, len(after.Messages), after.CutOff, after.Skipped)
		}
	}
}

// A record changed on disk in the middle of a log is skipped and said; the records around it
// are read.
func TestChangedRecordIsSkipped(t *testing.T) {
	data, msgs := crashLog(t)
	at := bytes.Index(data, []byte("12:00"))
	changed := bytes.Clone(data)
	changed[at] = '3' // still valid JSON: only the checksum tells
	path := filepath.Join(t.TempDir(), "changed.jsonl")
	if err := os.WriteFile(path, changed, 0o600); err != nil {
		t.Fatal(err)
	}
	log, err := Read(path)
	want := []wire.Message{msgs[0], msgs[1], msgs[3]}
	if err != nil || !reflect.DeepEqual(log.Messages, want) || !reflect.DeepEqual(log.Skipped, []int{3}) {
		t.Fatalf("Read: %v, messages %+v, skipped %v", err, log.Messages, log.Skipped)
	}
	if got := log.SkippedNote(); got != "skipped 1 unreadable record (line 3)" {
		t.Fatalf("note %q", got)
	}
}

// Any bytes at all unseal without a panic, and a sealed line unseals to what was sealed.
func FuzzUnseal(f *testing.F) {
	f.Add([]byte(`{"type":"usage","usage":{}}`))
	f.Add([]byte(`{"type":"usage","crc":"0000000g"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		unseal(bytes.Clone(b))
		if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' || bytes.IndexByte(b, '\n') >= 0 {
			return
		}
		sealed := seal(bytes.Clone(b))
		body, ok, good := unseal(sealed[:len(sealed)-1])
		if !ok || !good || !bytes.Equal(body, b) {
			t.Fatalf("unseal(seal(%q)) = %q, %v, %v", b, body, ok, good)
		}
	})
}
