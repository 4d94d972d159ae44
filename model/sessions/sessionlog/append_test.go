package sessionlog

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// phasechat --resume s.jsonl --log s.jsonl after a crash mid-write: the log ends in a cut-off
// line. Appending to it must leave a log Read still accepts, holding what Read gave before
// plus the new records — not glue the first new record to the cut-off line.
func TestAppendAfterACutOffLine(t *testing.T) {
	long := `{"type":"message","message":{"role":"user","content":"` + strings.Repeat("ab", 6000) + `"}}`
	tests := []struct {
		name string
		text string
		kept []wire.Message // what Read returns before the append
	}{
		{"cut mid-line", userLine + "\n" + callLine[:40], []wire.Message{{Role: "user", Parts: wire.TextParts("what time is it")}}},
		{"complete but unterminated", userLine, []wire.Message{{Role: "user", Parts: wire.TextParts("what time is it")}}},
		{"cut inside the first line", userLine[:10], nil},
		{"whole lines", userLine + "\n", []wire.Message{{Role: "user", Parts: wire.TextParts("what time is it")}}},
		{"long line cut", userLine + "\n" + long[:9000], []wire.Message{{Role: "user", Parts: wire.TextParts("what time is it")}}},
		{"long line unterminated", userLine + "\n" + long, []wire.Message{{Role: "user", Parts: wire.TextParts("what time is it")},
			{Role: "user", Parts: wire.TextParts(strings.Repeat("ab", 6000))}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, tt.text)
			before, err := Read(path)
			if err != nil || !reflect.DeepEqual(before.Messages, tt.kept) {
				t.Fatalf("before: %+v, %v", before.Messages, err)
			}
			w := create(t, path)
			w.Add(userRecord("resumed"))
			closeLog(t, w)
			after, err := Read(path)
			if err != nil {
				data, _ := os.ReadFile(path)
				t.Fatalf("the log is unreadable after appending: %v\n%s", err, data)
			}
			want := append(append([]wire.Message(nil), tt.kept...), wire.Message{Role: "user", Parts: wire.TextParts("resumed")})
			if !reflect.DeepEqual(after.Messages, want) || after.CutOff {
				t.Fatalf("after: %+v (cutOff %v), want %+v", after.Messages, after.CutOff, want)
			}
		})
	}
}
