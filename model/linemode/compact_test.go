package linemode

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
)

// /compact in the line mode: the summary is read out as its own entry and the way requests
// go on is said in words.
func TestLineCompact(t *testing.T) {
	base := fixtureURL(t)
	var out syncBuffer
	input := "first question\nsecond question\n/compact names\nthird question\n"
	o := sessionOptions(t, base, "text", t.TempDir(), false, pipeWith(t, input), &out)
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	summary := strings.Index(got, chat.SummaryHeading)
	said := strings.Index(got, "From now on each request sends this summary in place of the first 1 turn")
	third := strings.Index(got, "You: third question")
	if summary < 0 || said < summary || third < said {
		t.Fatalf("the summary and what it means are not said before the next message:\n%s", got)
	}
}
