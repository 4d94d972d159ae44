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
	return &wire.Message{Role: "assistant", Parts: []wire.Part{
		wire.Text{Text: "Let me look."}, wire.ToolCall{ID: "a", Name: "now", Arguments: "{}"},
		wire.Text{Text: " It says so."}, wire.ToolCall{Index: 1, ID: "b", Name: "now", Arguments: "{}"},
		wire.Text{Text: " So."},
	}}
}

// The layouts of agentic's reply: as it streamed, and with its text first.
const (
	asStreamed = "t:Let me look. c:a t: It says so. c:b t: So."
	textFirst  = "t:Let me look. It says so. So. c:a c:b"
)

// placesLine is a message record of a log written before parts, with text_after given as raw
// JSON, around agentic's message.
func placesLine(raw string) string {
	return `{"type":"message","time":"2026-12-01T08:00:00Z","text_after":` + raw + `,"message":{"role":"assistant","content":"Let me look. It says so. So.","tool_calls":[` +
		`{"id":"a","type":"function","function":{"name":"now","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"now","arguments":"{}"}}]}}`
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

// A message is written as its parts, in order, readable as they are (jq '.message.parts'), and
// read back the same, its calls numbered in order; how a reply ended is written beside it.
func TestPartsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	w.Add(chat.Record{Message: agentic()})
	stopped := agentic()
	stopped.End = phase.End{Why: phase.EndStopped}
	w.Add(chat.Record{Message: stopped})
	thinking := agentic()
	thinking.Parts = append([]wire.Part{wire.Reasoning{Text: "hm"}}, thinking.Parts...)
	thinking.AppendReasoning("more")
	w.Add(chat.Record{Message: thinking})
	closeLog(t, w)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"message":{"role":"assistant","parts":[{"type":"text","text":"Let me look."},{"type":"call","id":"a","name":"now","arguments":"{}"},`) ||
		!strings.Contains(lines[1], `"end":{"why":"stopped"}`) || strings.Contains(string(data), "text_after") || strings.Contains(string(data), `"content"`) {
		t.Fatalf("log:\n%s", data)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{asStreamed, asStreamed, "r:hm " + asStreamed + " r:more"} {
		if got := layout(log.Messages[i].Parts); got != want {
			t.Errorf("message %d: parts %q, want %q", i, got, want)
		}
		if calls := log.Messages[i].Calls(); calls[0].Index != 0 || calls[1].Index != 1 {
			t.Errorf("message %d: calls %+v", i, calls)
		}
	}
	if log.Messages[1].End != (phase.End{Why: phase.EndStopped}) {
		t.Fatalf("ended %+v", log.Messages[1].End)
	}
}

// A log written before parts, and a hand-edited or hostile one, resumes: whatever text_after
// holds, the line reads, the text is whole, and a place that cannot be one puts its card after
// all the text or, before an earlier card's place, at that place.
func TestCardsPlacesFromAHostileLog(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      string
	}{
		{"as written", "[16,4]", asStreamed},
		{"below 0", "[-1,4]", textFirst},
		{"past the text", "[29,4]", textFirst},
		{"the whole text", "[28,4]", "c:a t:Let me look. It says so. c:b t: So."},
		{"before the card ahead", "[4,16]", "t:Let me look. It says so. c:a c:b t: So."},
		{"fewer than the calls", "[16]", "t:Let me look. c:a t: It says so. So. c:b"},
		{"more than the calls", "[16,4,2,1]", asStreamed},
		{"empty", "[]", textFirst},
		{"null", "null", textFirst},
		{"a string", `"16"`, textFirst},
		{"an object", `{"a":16}`, textFirst},
		{"strings", `["16","4"]`, textFirst},
		{"a fraction", "[16.5,4]", textFirst},
		{"an exponent", "[1e1,4]", textFirst},
		{"past int64", "[99999999999999999999,4]", textFirst},
		{"largest int", "[9223372036854775807,4]", textFirst},
		{"nested", "[[16],4]", textFirst},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := readOne(t, placesLine(tc.raw))
			if m.Text() != "Let me look. It says so. So." || len(m.Calls()) != 2 {
				t.Fatalf("message %+v", m)
			}
			if got := layout(m.Parts); got != tc.want {
				t.Fatalf("parts %q, want %q", got, tc.want)
			}
		})
	}
	if m := readOne(t, callLine); layout(m.Parts) != "c:call_1" {
		t.Fatalf("a line without places: %+v", m)
	}
	if m := readOne(t, `{"type":"message","text_after":[3],"message":{"role":"user","content":"hello"}}`); m.Text() != "hello" || m.Calls() != nil {
		t.Fatalf("places on a message without calls: %+v", m)
	}
}

// The log hides secrets in a reply's text as a message, part by part, so a card stays between
// the same words, or, when a secret spans a card, every card goes after all the text.
func TestCardsPlacesAfterRedaction(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	a, b := wire.ToolCall{ID: "a", Name: "now", Arguments: "{}"}, wire.ToolCall{Index: 1, ID: "b", Name: "now", Arguments: "{}"}
	for _, tc := range []struct {
		name  string
		parts []wire.Part
		want  string
	}{
		{"a secret before the cards", []wire.Part{wire.Text{Text: "key " + key + " then"}, a, wire.Text{Text: " more"}, b, wire.Text{Text: " end"}},
			"t:key [redacted] then c:a t: more c:b t: end"},
		{"a secret between the cards", []wire.Part{wire.Text{Text: "look"}, a, wire.Text{Text: " key " + key + " ok"}, b, wire.Text{Text: " end"}},
			"t:look c:a t: key [redacted] ok c:b t: end"},
		{"a secret after the cards", []wire.Part{wire.Text{Text: "look"}, a, wire.Text{Text: " a"}, b, wire.Text{Text: " key " + key}},
			"t:look c:a t: a c:b t: key [redacted]"},
		{"a secret across a card", []wire.Part{wire.Text{Text: "look sk-live-01"}, a, wire.Text{Text: "23456789abcdef"}, b, wire.Text{Text: " end"}},
			"t:look [redacted] end c:a c:b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			w := create(t, path)
			w.SetSecrets(secret.New(key))
			w.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: tc.parts}})
			closeLog(t, w)
			data, _ := os.ReadFile(path)
			if strings.Contains(string(data), key) {
				t.Fatalf("the key is in the log:\n%s", data)
			}
			if got := layout(readOne(t, strings.TrimSuffix(string(data), "\n")).Parts); got != tc.want {
				t.Errorf("parts %q, want %q", got, tc.want)
			}
		})
	}
}

// Why a reply ended early is read back onto its message, where resuming marks the reply as
// it was marked live; a whole reply, and a message that is not a reply, carry nothing.
func TestWhyAReplyEndedIsReadOntoIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	w.Add(chat.Record{Message: &wire.Message{Role: "user", Parts: wire.TextParts("hi")}})
	stopped := agentic()
	stopped.End = phase.End{Why: phase.EndStopped}
	w.Add(chat.Record{Message: stopped})
	w.Add(chat.Record{Message: &wire.Message{Role: "assistant", Parts: wire.TextParts("whole")}})
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

// A real log written before parts reads into parts in the order the reply streamed, and
// written again it holds the same messages.
func TestALogWrittenBeforePartsReadsIntoParts(t *testing.T) {
	log, err := Read("testdata/before-parts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range log.Messages {
		got = append(got, m.Role+" "+layout(m.Parts))
	}
	want := []string{
		"user t:look around",
		"assistant t:Let me look at the directory first. c:call_look t:\n\nThe listing is on its way. Once more, to be sure: c:call_again t:\n\nSo both listings will come back together.",
		"tool t:(empty directory)", "tool t:(empty directory)",
		"assistant t:Tool results received: list_dir → (empty directory); list_dir → (empty directory).",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	for i := range log.Messages {
		w.Add(chat.Record{Message: &log.Messages[i]})
	}
	closeLog(t, w)
	again, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Messages, log.Messages) {
		t.Fatalf("written again and read:\n%+v\nread before:\n%+v", again.Messages, log.Messages)
	}
}
