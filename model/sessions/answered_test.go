package sessions

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
)

// A conversation that switched models (Ctrl+P) names the provider and model of each reply in
// its export: under each reply's heading in Markdown, in "answered" in JSON.
func TestExportNamesTheModelOfEachReply(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w := sessionlog.Later(path, nil)
	w.Head(sessionlog.Header{New: true, Model: "openai/gpt-4o-mini"})
	msg := func(role, text string) chat.Record {
		return chat.Record{Message: &wire.Message{Role: role, Parts: wire.TextParts(text)}}
	}
	w.Add(msg("user", "first"))
	w.Add(msg("assistant", "from the first"))
	w.Add(chat.Record{Model: "deepseek/deepseek-chat"})
	w.Add(msg("user", "second"))
	w.Add(msg("assistant", "from the second"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := sessionlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := Markdown(&md, Meta{ID: "x"}, log); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Assistant (openai/gpt-4o-mini)\n\nfrom the first", "## Assistant (deepseek/deepseek-chat)\n\nfrom the second"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown export lacks %q:\n%s", want, md.String())
		}
	}
	var js bytes.Buffer
	if err := JSON(&js, Meta{ID: "x"}, log); err != nil {
		t.Fatal(err)
	}
	var e Export
	if err := json.Unmarshal(js.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	want := []Answered{{1, "openai/gpt-4o-mini"}, {3, "deepseek/deepseek-chat"}}
	if len(e.Answered) != 2 || e.Answered[0] != want[0] || e.Answered[1] != want[1] {
		t.Fatalf("answered = %+v, want %+v", e.Answered, want)
	}
}
