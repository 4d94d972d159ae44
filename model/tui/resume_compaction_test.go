package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/phase/transcript"
)

// shownEntries is each entry of a transcript but its notices, as its role and text.
func shownEntries(entries []*transcript.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		if e.Role() != transcript.RoleNotice {
			fmt.Fprintf(&b, "%v: %s\n", e.Role(), e.Text())
		}
	}
	return b.String()
}

// A conversation compacted twice between its turns, logged and resumed, shows each summary
// where it was made, between the turns before it and those after, with the same heading: the
// resumed transcript is the live one.
func TestResumedCompactionKeepsItsPlace(t *testing.T) {
	h := newHarness(t, "text", 80, 40)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	w := sessionlog.Later(path, nil)
	h.m.log = w
	for _, q := range []string{"first question", "second question", "third question"} {
		h.submit(q)
		h.feedAll()
	}
	h.submit("/compact")
	h.feedAll()
	for _, q := range []string{"fourth question", "fifth question"} {
		h.submit(q)
		h.feedAll()
	}
	h.submit("/compact")
	h.feedAll()
	h.submit("sixth question")
	h.feedAll()
	live := shownEntries(h.m.Chat().Entries())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := sessionlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Compactions) != 2 {
		t.Fatalf("the log holds %d compactions, want 2", len(log.Compactions))
	}
	resumed := chat.New(h.cfg, log.Messages)
	resumed.SetCompactions(log.Compactions)
	if got := shownEntries(resumed.Entries()); got != live {
		t.Fatalf("the resumed transcript differs from the live one\nlive:\n%s\nresumed:\n%s", live, got)
	}
	inOrder(t, live, "third question", chat.SummaryHeading, "fourth question", "fifth question", chat.SummaryHeading, "sixth question")
}
