package sessionlog

import (
	"strings"
	"testing"
)

// The fold takes out a live record exactly when the reader passes over it, whatever line
// follows the request: each kind of record, and lines written by hand that hold two things.
func TestTheFoldPassesOverWhatTheReaderPassesOver(t *testing.T) {
	const begin = `{"type":"live","live":{"what":"begin"}}`
	const text = `{"type":"live","live":{"what":"text","text":"streamed words"}}`
	for _, next := range []string{
		`{"type":"message","message":{"role":"user","content":"q"}}`,
		`{"type":"message","message":{"role":"assistant","content":"a"}}`,
		`{"type":"message","message":{"role":"tool","tool_call_id":"c","content":"out"}}`,
		`{"type":"usage","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
		`{"type":"session","session":{"model":"m2"}}`,
		`{"type":"session","session":{"model":"m","new":true}}`,
		`{"type":"compaction","compaction":{"summary":"s","turns":1}}`,
		begin,
		`{"type":"live","live":{"what":"run","id":"c","name":"read"}}`,
		`{"type":"compaction","compaction":{"summary":"s","turns":1},"session":{"model":"m","new":true}}`,
		`{"type":"message","message":{"role":"tool","tool_call_id":"c","content":"out"},"compaction":{"summary":"s","turns":1}}`,
		`{"type":"usage","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2},"compaction":{"summary":"s","turns":1}}`,
	} {
		log := readBytes(t, []byte(begin+"\n"+text+"\n"+next+"\n"))
		read := false
		for _, m := range log.Messages {
			read = read || strings.Contains(m.Text(), "streamed words")
		}
		var lines []writtenLine
		for _, l := range []string{begin, text, next} {
			var rec Record
			if !parseLine([]byte(l), &rec) {
				t.Fatalf("%s is no record", l)
			}
			lines = append(lines, writtenLine{len(l), kindOf(&rec)})
		}
		if drop, _ := passedOver(lines); drop[1] == read {
			t.Errorf("followed by %s: the reader reads the streamed text: %v; the fold takes it out: %v", next, read, drop[1])
		}
	}
}
