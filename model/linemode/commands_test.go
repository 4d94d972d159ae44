package linemode

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/stream/wire"
)

type countRecorder struct{ n *int }

func (r countRecorder) Add(chat.Record) { *r.n++ }

type lineConversations struct {
	news    int
	resumed string
	recs    int
}

func (c *lineConversations) New() perform.Recorder { c.news++; return countRecorder{&c.recs} }
func (c *lineConversations) List() ([]sessions.Meta, error) {
	return []sessions.Meta{{ID: "s-1", Title: "About penguins", Turns: 1}, {ID: "s-2", Title: "About walruses", Turns: 3}}, nil
}
func (c *lineConversations) Resume(id string) (sessions.Continued, error) {
	c.resumed = id
	return sessions.Continued{History: []wire.Message{{Role: "user", Parts: wire.TextParts("old")}, {Role: "assistant", Parts: wire.TextParts("older")}},
		Log: countRecorder{&c.recs}, Notice: "Resumed session " + id + "."}, nil
}

// TestLineCommands: commands are never sent to the model; /help lists them; an unknown one
// says so; // sends a slash; /copy copies with the clipboard tool; /sessions lists and the
// next line picks; /new starts afresh with a new recording.
func TestLineCommands(t *testing.T) {
	base := fixtureURL(t)
	var out syncBuffer
	input := "/help\n/frobnicate\n/copy\n//etc is a folder\n/copy\n/copy code\n/sessions\n2\n/new\n/system be brief\nhi\n"
	o := sessionOptions(t, base, "text", t.TempDir(), false, pipeWith(t, input), &out)
	var copied []string
	o.Clipboard = func(s string) error { copied = append(copied, s); return nil }
	convs := &lineConversations{}
	o.Conversations = convs
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"Commands:\n/help — list the commands\n",
		"Note: Unknown command /frobnicate: it was not sent.",
		"Note: There is no reply to copy yet.",
		"You: /etc is a folder\nStatus: Writing a reply.",
		"Note: Copied the last reply (",
		"Note: The last reply has no code block.",
		"1. ", "About penguins", "2. ", "About walruses",
		"Note: Resumed session s-2.",
		"Note: A new conversation.",
		"Note: System prompt set for the next requests.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%s", want, got)
		}
	}
	if len(copied) != 1 || !strings.HasPrefix(copied[0], "Hello!") {
		t.Errorf("copied %q", copied)
	}
	if convs.resumed != "s-2" || convs.news != 1 || convs.recs == 0 {
		t.Errorf("resumed %q, %d new, %d records to the switched recorders", convs.resumed, convs.news, convs.recs)
	}
	hist := o.Chat.History
	if len(hist) != 2 || hist[0].Text() != "hi" {
		t.Fatalf("after /new the history is %+v, want only the last turn", hist)
	}
	if strings.Contains(got, "You: /frobnicate\nStatus: Writing") {
		t.Fatal("an unknown command was sent")
	}
}
