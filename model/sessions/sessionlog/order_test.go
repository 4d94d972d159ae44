package sessionlog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// agentic is a reply that talks between its calls: "Let me look." a " It says so." b " So.".
func agentic() *wire.Message {
	return &wire.Message{Role: "assistant", Content: "Let me look. It says so. So.", ToolCalls: []wire.ToolCall{
		{ID: "a", Name: "now", Arguments: "{}", TextAfter: len(" It says so. So.")},
		{Index: 1, ID: "b", Name: "now", Arguments: "{}", TextAfter: len(" So.")},
	}}
}

// placesLine is a message record with text_after given as raw JSON, around agentic's message.
func placesLine(raw string) string {
	return `{"type":"message","time":"2026-12-01T08:00:00Z","text_after":` + raw + `,"message":{"role":"assistant","content":"Let me look. It says so. So.","tool_calls":[` +
		`{"id":"a","type":"function","function":{"name":"now","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"now","arguments":"{}"}}]}}`
}

// textAfters is each call's TextAfter.
func textAfters(m wire.Message) []int {
	var out []int
	for _, tc := range m.ToolCalls {
		out = append(out, tc.TextAfter)
	}
	return out
}

// readOne writes lines as a log and reads its one message back.
func readOne(t *testing.T, lines ...string) wire.Message {
	t.Helper()
	log, err := Read(writeLog(t, strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Messages) != 1 {
		t.Fatalf("%d messages: %+v", len(log.Messages), log.Messages)
	}
	return log.Messages[0]
}

// Where each card stood in its reply's text is written beside the message, never in it (the
// message is what requests send), and read back; a reply whose cards all came after the text
// is written as before.
func TestCardsPlacesRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	w.Add(chat.Record{Message: agentic()})
	stopped := agentic()
	stopped.End = phase.End{Why: phase.EndStopped}
	w.Add(chat.Record{Message: stopped})
	plain := agentic()
	plain.ToolCalls[0].TextAfter, plain.ToolCalls[1].TextAfter = 0, 0
	w.Add(chat.Record{Message: plain})
	closeLog(t, w)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"text_after":[16,4],"message":{`) || strings.Contains(lines[2], "text_after") {
		t.Fatalf("log:\n%s", data)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]int{{16, 4}, {16, 4}, {0, 0}} {
		if got := textAfters(log.Messages[i]); !reflect.DeepEqual(got, want) {
			t.Errorf("message %d: TextAfter %v, want %v", i, got, want)
		}
	}
	if log.Messages[1].End != (phase.End{Why: phase.EndStopped}) {
		t.Fatalf("ended %+v", log.Messages[1].End)
	}
}

// A log written before cards had places, and a hand-edited or hostile one, resumes: whatever
// text_after holds, the line reads, the text is whole, and a place that cannot be one reads as
// 0 (the card after all the text) or, before an earlier card's place, as that place.
func TestCardsPlacesFromAHostileLog(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      []int
	}{
		{"as written", "[16,4]", []int{16, 4}},
		{"below 0", "[-1,4]", []int{0, 0}},
		{"past the text", "[29,4]", []int{0, 0}},
		{"the whole text", "[28,4]", []int{28, 4}},
		{"before the card ahead", "[4,16]", []int{4, 4}},
		{"fewer than the calls", "[16]", []int{16, 0}},
		{"more than the calls", "[16,4,2,1]", []int{16, 4}},
		{"empty", "[]", []int{0, 0}},
		{"null", "null", []int{0, 0}},
		{"a string", `"16"`, []int{0, 0}},
		{"an object", `{"a":16}`, []int{0, 0}},
		{"strings", `["16","4"]`, []int{0, 0}},
		{"a fraction", "[16.5,4]", []int{0, 0}},
		{"an exponent", "[1e1,4]", []int{0, 0}},
		{"past int64", "[99999999999999999999,4]", []int{0, 0}},
		{"largest int", "[9223372036854775807,4]", []int{0, 0}},
		{"nested", "[[16],4]", []int{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := readOne(t, placesLine(tc.raw))
			if m.Content != "Let me look. It says so. So." || len(m.ToolCalls) != 2 {
				t.Fatalf("message %+v", m)
			}
			if got := textAfters(m); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("TextAfter %v, want %v", got, tc.want)
			}
		})
	}
	if m := readOne(t, callLine); !reflect.DeepEqual(textAfters(m), []int{0}) {
		t.Fatalf("a line without places: %+v", m)
	}
	if m := readOne(t, `{"type":"message","text_after":[3],"message":{"role":"user","content":"hello"}}`); m.Content != "hello" || m.ToolCalls != nil {
		t.Fatalf("places on a message without calls: %+v", m)
	}
}

// The log hides secrets in a reply's text as a message, so its cards' places are counted in
// the text it keeps: a card stays between the same words, or, when a secret spans its place,
// every card goes after all the text.
func TestCardsPlacesAfterRedaction(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	for _, tc := range []struct {
		name, content string
		after         []int
		want          []string // the text after each card, as logged
	}{
		{"a secret before the cards", "key " + key + " then" + " more" + " end", []int{len(" more end"), len(" end")}, []string{" more end", " end"}},
		{"a secret between the cards", "look" + " key " + key + " ok" + " end", []int{len(" key " + key + " ok end"), len(" end")}, []string{" key [redacted] ok end", " end"}},
		{"a secret after the cards", "look" + " a" + " key " + key, []int{len(" a key " + key), len(" key " + key)}, []string{" a key [redacted]", " key [redacted]"}},
		{"a secret across a card", "look sk-live-01" + "23456789abcdef" + " end", []int{len("23456789abcdef end"), len(" end")}, []string{"", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &wire.Message{Role: "assistant", Content: tc.content}
			for i, after := range tc.after {
				m.ToolCalls = append(m.ToolCalls, wire.ToolCall{Index: i, ID: string(rune('a' + i)), Name: "now", Arguments: "{}", TextAfter: after})
			}
			path := filepath.Join(t.TempDir(), "log.jsonl")
			w := create(t, path)
			w.SetSecrets(secret.New(key))
			w.Add(chat.Record{Message: m})
			closeLog(t, w)
			data, _ := os.ReadFile(path)
			if strings.Contains(string(data), key) {
				t.Fatalf("the key is in the log:\n%s", data)
			}
			got := readOne(t, strings.TrimSuffix(string(data), "\n"))
			for i, tc2 := range got.ToolCalls {
				if after := got.Content[len(got.Content)-tc2.TextAfter:]; after != tc.want[i] {
					t.Errorf("card %d: text after it %q, want %q (content %q)", i, after, tc.want[i], got.Content)
				}
			}
		})
	}
}

// Why a reply ended early is read back onto its message, where resuming marks the reply as
// it was marked live; a whole reply, and a message that is not a reply, carry nothing.
func TestWhyAReplyEndedIsReadOntoIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	w.Add(chat.Record{Message: &wire.Message{Role: "user", Content: "hi"}})
	stopped := agentic()
	stopped.End = phase.End{Why: phase.EndStopped}
	w.Add(chat.Record{Message: stopped})
	w.Add(chat.Record{Message: &wire.Message{Role: "assistant", Content: "whole"}})
	closeLog(t, w)
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []phase.End{{}, {Why: phase.EndStopped}, {}} {
		if got := log.Messages[i].End; got != want {
			t.Errorf("message %d: End %+v, want %+v", i, got, want)
		}
	}
	entries := chat.New(chat.Config{}, log.Messages).Entries()
	if got := entries[1].Mark(); got != transcript.MarkStopped {
		t.Fatalf("the resumed reply's mark is %v, want stopped", got)
	}
}
