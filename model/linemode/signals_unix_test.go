//go:build unix

package linemode

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
)

// TestPipeOutlivesSIGCONT: a job-control continue is not a reason to quit, with or without a
// terminal to set up again.
func TestPipeOutlivesSIGCONT(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out syncBuffer
	wait := start(t, sessionOptions(t, fixtureURL(t), "text", t.TempDir(), false, r, &out))
	testwait.Until(t, func() bool { return strings.Contains(out.String(), "You: ") }, "no prompt:\n%s", &out)
	if err := syscall.Kill(os.Getpid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	w.WriteString("hi\n")
	w.Close()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Status: Answer ready.") {
		t.Fatalf("the chat did not go on after SIGCONT:\n%s", out.String())
	}
}
