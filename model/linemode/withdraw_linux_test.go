package linemode

import (
	"strings"
	"testing"
)

// TestTerminalEscBeforeTheFirstByteTakesTheMessageBack: over stall (headers, then nothing),
// Esc takes the message back and says so in words; it is not in the conversation, and the
// prompt is back.
func TestTerminalEscBeforeTheFirstByteTakesTheMessageBack(t *testing.T) {
	p := openPTY(t)
	wait := start(t, sessionOptions(t, fixtureURL(t), "stall", t.TempDir(), true, p.slave, p.slave))
	p.waitFor("You: ")
	p.send("never mind\r")
	p.waitFor(writing)
	p.expectMode(keyInput) // an Esc typed before the switch to single keys is a line's text
	p.send("\x1b")
	p.waitFor("Stopped before the reply began: your message was not sent: never mind\r\n")
	p.waitFor("You: ")
	p.expectMode(lineInput)
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.output(), "Assistant:") {
		t.Fatalf("a reply was printed:\n%s", p.output())
	}
}
