package tmux

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
)

// A message sent while slow-drip streams is queued (shown under the composer's label) and goes
// as the next request once the reply has ended, not before.
func TestTUIQueuedMessageIsSentAfterTheReply(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixturesWith(t, fixtures.Options{Pace: 0.1})
	p := fs.newChatPane(t, 100, 30, "slow-drip", "--no-save")
	p.waitFor(idleStatus)
	p.typeText("drip please")
	p.keys("Enter")
	p.waitFor("Writing a reply")
	p.typeText("and then?")
	p.keys("Enter")
	p.waitFor("▶ queued: and then?")
	if n := fs.started.Load(); n != 1 {
		t.Fatalf("%d requests while the first reply streams", n)
	}
	waitCount(t, "requests", &fs.started, 2)
	p.waitFor("› and then?")
	p.keys("Escape")
	if s := p.waitFor("Stopped"); strings.Contains(s, "▶ queued") {
		t.Fatalf("the queue still shows after its message was sent:\n%s", s)
	}
	p.keys("C-c")
	if status := p.waitExit(); status != "0" {
		t.Fatalf("exit status %s", status)
	}
}
