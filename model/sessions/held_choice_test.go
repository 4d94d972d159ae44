package sessions

import (
	"bytes"
	"strings"
	"testing"
)

// The choice offered for a held conversation names the holder and reads a number; anything
// else leaves the conversation alone.
func TestAskHeldOffersViewForkOrQuit(t *testing.T) {
	e := &HeldError{ID: "20261201-101010-abcdef", Holder: Holder{PID: 4242, Terminal: "/dev/pts/7"}}
	for answer, want := range map[string]HeldChoice{"1\n": HeldView, " 2 \n": HeldFork, "3\n": HeldQuit, "": HeldQuit, "yes\n": HeldQuit} {
		var out bytes.Buffer
		if got := AskHeld(strings.NewReader(answer), &out, e); got != want {
			t.Errorf("answer %q: choice %d, want %d", answer, got, want)
		}
		if !strings.Contains(out.String(), "pid 4242") || !strings.Contains(out.String(), "/dev/pts/7") ||
			!strings.Contains(out.String(), "1  view") || !strings.Contains(out.String(), "2  continue it in a copy") {
			t.Fatalf("the question:\n%s", out.String())
		}
	}
}
