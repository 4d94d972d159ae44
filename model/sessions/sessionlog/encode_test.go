package sessionlog

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// lineByEncodingJSON is a message record's line as encoding/json writes it: the message
// marshalled as a loggedMessage inside a recordLine.
func lineByEncodingJSON(r Record) ([]byte, error) {
	l := recordLine{Type: r.Type, Time: r.Time, Session: r.Session, Usage: r.Usage, Live: r.Live}
	m := r.Message
	l.End, l.Call = endRecordOf(m.End), callRecordOf(m.Ending)
	parts := make([]loggedPart, 0, len(m.Parts))
	for _, p := range m.Parts {
		switch p := p.(type) {
		case wire.Text:
			parts = append(parts, loggedPart{Type: "text", Text: p.Text})
		case wire.Reasoning:
			parts = append(parts, loggedPart{Type: "reasoning", Text: p.Text})
		case wire.ToolCall:
			parts = append(parts, loggedPart{Type: "call", ID: p.ID, Name: p.Name, Arguments: p.Arguments, ExtraContent: p.ExtraContent})
		}
	}
	b, err := json.Marshal(loggedMessage{Role: m.Role, Parts: &parts, ReasoningField: m.ReasoningField,
		ToolCallID: m.ToolCallID, Name: m.Name, Native: m.Native, Attachments: m.Attachments})
	if err != nil {
		return nil, err
	}
	l.Message = b
	return json.Marshal(l)
}

// hostilePieces are what strings the encoder must escape as encoding/json does are made of.
var hostilePieces = []string{"plain ", "\"", "\\", "<b>", "&amp;", "\n", "\r\t", "\b\f", "\x00\x01\x1f", "\x7f",
	"é", "日本", "👍🏽", "\u2028", "\u2029", "\xff", "\xe6\x97", "\xed\xa0\x80", "/", "'"}

func hostileString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(hostilePieces[r.IntN(len(hostilePieces))])
	}
	return b.String()
}

// A message record's line is, byte for byte, the one encoding/json writes for it.
func TestMessageLineIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	for trial := range 2000 {
		m := wire.Message{Role: []string{"assistant", "user", "tool"}[trial%3], ToolCallID: hostileString(r), Name: hostileString(r)}
		if trial%4 == 0 {
			m.ReasoningField = wire.FieldReasoningContent
		}
		for range r.IntN(5) {
			switch r.IntN(3) {
			case 0:
				m.Parts = append(m.Parts, wire.Text{Text: hostileString(r)})
			case 1:
				m.Parts = append(m.Parts, wire.Reasoning{Text: hostileString(r)})
			default:
				c := wire.ToolCall{ID: hostileString(r), Name: hostileString(r), Arguments: hostileString(r)}
				if r.IntN(3) == 0 {
					c.ExtraContent = json.RawMessage(`{"a": "<x>", "b" : [1, 2]}`)
				}
				m.Parts = append(m.Parts, c)
			}
		}
		if trial%5 == 0 {
			m.End = phase.End{Why: phase.EndCutOff, Note: hostileString(r)}
		}
		if trial%7 == 0 {
			m.Native = &wire.NativeReasoning{Items: []json.RawMessage{json.RawMessage(`{"x":1}`)}}
			m.Attachments = []wire.Attachment{{Name: hostileString(r), Hash: "ab", Size: 3}}
		}
		rec := Record{Type: "message", Message: &m}
		if trial%2 == 0 {
			rec.Time = &now
		}
		want, werr := lineByEncodingJSON(rec)
		got, gerr := appendRecord(nil, rec)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("trial %d:\ngot  %s (%v)\nwant %s (%v)", trial, got, gerr, want, werr)
		}
	}
}

// Writing a long reply's record leaves no copy of it behind once the log is closed, not even
// in encoding/json's buffer pool, which lets go only after a second collection.
func TestALongMessageLeavesNoCopyBehind(t *testing.T) {
	text := strings.Repeat("a long reply <with> some & text\n", 1<<17) // 4 MB
	w, err := createNow(t.TempDir() + "/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m := wire.Message{Role: "assistant", Parts: wire.TextParts(text)}
	w.Add(chat.Record{Message: &m})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > int64(len(text))/2 {
		t.Fatalf("a %d-byte reply left %d bytes held after one collection", len(text), held)
	}
	runtime.KeepAlive(text)
}
