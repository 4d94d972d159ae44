package linemode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
)

// Keys queued before the question and typing that runs on into it never answer it, and once
// the keyboard is still the line mode says they were not taken; a lowercase a is told to be a
// capital; a deliberate y after a still moment runs the tool.
func TestTypingNeverApprovesInLineMode(t *testing.T) {
	dir := t.TempDir()
	p := openPTY(t)
	opts := sessionOptions(t, fixtureURL(t), "mark", dir, true, p.slave, p.slave)
	const quiet = time.Second // longer than any gap inside one write on a loaded machine
	opts.ApprovalQuiet = quiet
	wait := start(t, opts)
	p.waitFor("You: ")
	p.send("note hi\ry") // the y is queued before any question exists
	p.waitFor("Tool: mark is waiting for your approval")
	p.send("thanks, can you say yes? aaa yyy nnn")
	if p.appears("Tool: mark started", quiet/2) || p.appears("not run", 0) {
		t.Fatalf("typing answered the question:\n%s", p.output())
	}
	p.waitFor(chat.ApprovalNotTaken) // said once the keyboard was still: the typing was not taken
	p.pressUntil("a", "Press A (Shift+A) to always allow")
	if _, err := os.Stat(filepath.Join(dir, "marker.txt")); err == nil {
		t.Fatal("the tool ran without a deliberate answer")
	}
	p.pressUntil("y", "Tool: mark started: text=hi")
	p.waitFor(answerReady + "\r\nYou: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if strings.Count(p.output(), "Tool: mark started") != 1 {
		t.Fatalf("the tool ran %d times", strings.Count(p.output(), "Tool: mark started"))
	}
}
