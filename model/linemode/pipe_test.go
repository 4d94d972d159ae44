package linemode

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// pipeWith returns the read end of a pipe that holds input and then ends.
func pipeWith(t *testing.T, input string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() {
		w.WriteString(input)
		w.Close()
	}()
	return r
}

// TestPipeSendsLinesInTurn: piped lines are sent one after another as each reply ends, echoed
// after the prompt; blank lines are skipped; a last line without '\n' counts; Run returns at
// the end of the input once the last reply is over. The output is checked whole.
func TestPipeSendsLinesInTurn(t *testing.T) {
	base := fixtureURL(t)
	var out syncBuffer
	o := sessionOptions(t, base, "text", t.TempDir(), false, pipeWith(t, "hello\n\n  \nsecond"), &out)
	o.Notice = "Resumed 2 messages from s.log."
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/v1")
	reply := []string{
		"Status: Writing a reply. Esc stops generating.",
		"Assistant: Hello! This is a plain streamed reply, sent one word at a time.",
		"Status: Answer ready.",
	}
	lines := []string{
		"phasechat, accessible line mode. Model text at " + host + ".",
		"Reading messages from standard input, one per line. Esc and Retry need a terminal, and tools that need approval are declined.",
		"Note: Resumed 2 messages from s.log.",
		"You: hello",
	}
	lines = append(lines, reply...)
	lines = append(lines, "You: second")
	lines = append(lines, reply...)
	want := strings.Join(append(lines, "You: ", ""), "\n")
	if got := out.String(); got != want {
		t.Fatalf("output\n%s\nwant\n%s", got, want)
	}
}

// TestPipeAfterAnErrorTheNextLineIsANewMessage: with no keys, Retry is not offered; the next
// line is sent instead (flaky fails odd requests and answers even ones).
func TestPipeAfterAnErrorTheNextLineIsANewMessage(t *testing.T) {
	var out syncBuffer
	base := fixtureURL(t)
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/v1")
	o := sessionOptions(t, base, "flaky", t.TempDir(), false, pipeWith(t, "one\ntwo\n"), &out)
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	got := statusLines(out.String())
	want := []string{
		"Status: Writing a reply. Esc stops generating.",
		"Status: HTTP 500 from " + host + ": The server had an error while processing your request (this fixture fails every other time; retry). The next line is sent as a new message.",
		"Status: Writing a reply. Esc stops generating.",
		"Status: Answer ready.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("status lines\n%q\nwant\n%q\noutput:\n%s", got, want, out.String())
	}
	if !strings.Contains(out.String(), "You: two\n") {
		t.Fatalf("the second line was not sent after the error:\n%s", out.String())
	}
}

// TestPipeDeclinesApprovals: with no terminal the engine declines side-effecting tools
// (CanAsk false); line mode says so, and the tool does not run.
func TestPipeDeclinesApprovals(t *testing.T) {
	dir := t.TempDir()
	var out syncBuffer
	o := sessionOptions(t, fixtureURL(t), "mark", dir, false, pipeWith(t, "note hi\n"), &out)
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Tool: mark not run: this tool has side effects and there is no terminal to ask for approval") {
		t.Fatalf("no denial line:\n%s", out.String())
	}
	if _, err := os.Stat(dir + "/marker.txt"); err == nil {
		t.Fatal("mark ran without approval")
	}
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after--; w.after < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestWriteErrorEndsRun: when the output cannot be written (here: the Status line that a
// slow reply started), Run stops the reply and returns the error in words.
func TestWriteErrorEndsRun(t *testing.T) {
	o := sessionOptions(t, fixtureURL(t), "slow-drip", t.TempDir(), false, pipeWith(t, "drip\n"), &failingWriter{after: 3})
	err := start(t, o)()
	if err == nil || !strings.Contains(err.Error(), "writing the output: disk full") {
		t.Fatalf("Run returned %v", err)
	}
	if o.Chat.State.Phase.Streaming() {
		t.Fatal("the reply was left streaming")
	}
}

// TestPipeEndingInAFailureExitsNonZero: after a truncated reply, with no one to press Retry,
// Run reports that the reply did not finish, and no key is advised.
func TestPipeEndingInAFailureExitsNonZero(t *testing.T) {
	var out syncBuffer
	o := sessionOptions(t, fixtureURL(t), "truncated", t.TempDir(), false, pipeWith(t, "hello\n"), &out)
	err := start(t, o)()
	if err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Fatalf("Run = %v; a reply cut off must not exit 0", err)
	}
	if strings.Contains(out.String(), "Enter retries") {
		t.Fatalf("keys advised where none can be read:\n%s", out.String())
	}
}
