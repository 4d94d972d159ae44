package linemode

import (
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// TestEveryPhaseChangeIsSpokenWhenTheStreamArrivesAtOnce: a stream whose events are all
// buffered before the first is read (no pacing) still gets one Status line per phase change:
// the tool's "Working on" line comes before the approval question, as it does when the events
// arrive one by one.
func TestEveryPhaseChangeIsSpokenWhenTheStreamArrivesAtOnce(t *testing.T) {
	h, err := fixtures.NewHandler(fixtures.Options{Dir: approvalDir})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	const question = "Status: Allow mark with text=hi? y runs it, n declines, A allows mark for this session. Esc stops."
	p := openPTY(t)
	wait := start(t, sessionOptions(t, srv.URL+"/v1", "mark", t.TempDir(), true, p.slave, p.slave))
	p.waitFor("You: ")
	p.send("note hi\r")
	p.waitFor(question + "\r\n")
	p.answerApproval("n", "Tool: mark not run")
	p.waitFor(answerReady + "\r\nYou: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Status: Writing a reply. Esc stops generating.",
		"Status: Working on mark. Esc stops generating.",
		question,
		"Status: Writing a reply. Esc stops generating.",
		"Status: Answer ready.",
	}
	if got := statusLines(p.output()); !reflect.DeepEqual(got, want) {
		t.Fatalf("status lines\n%q\nwant\n%q", got, want)
	}
}
