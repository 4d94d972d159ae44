package tmux

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
)

// A message sent while slow-drip streams is queued (shown under the composer's label) and goes
// as the next request once the reply has ended, not before.
func TestTUIQueuedMessageIsSentAfterTheReply(t *testing.T) {
	requireTmux(t)
	t.Parallel()
	fs := startFixturesWith(t, fixtures.Options{Pace: 0.1})
	// The reply waits at its tenth frame until the message is seen queued, and at its end
	// until the test has seen more of it arrive with the queue still waiting.
	var queuedSeen, ended atomic.Bool
	fs.holdFrame(10, queuedSeen.Load)
	fs.holdDone(ended.Load)
	p := fs.newChatPane(t, 100, 30, "slow-drip", "--no-save")
	p.waitFor(idleStatus)
	p.typeText("drip please")
	p.keys("Enter")
	p.waitFor("Writing a reply")
	p.typeText("and then?")
	p.keys("Enter")
	p.waitFor("▶ queued: and then?")
	queuedSeen.Store(true)
	if !testwait.For(t, func() bool { return fs.latestFrames() >= 13 }) {
		t.Fatalf("the reply stopped at frame %d", fs.latestFrames())
	}
	if n := fs.started.Load(); n != 1 {
		t.Fatalf("%d requests while the first reply streams", n)
	}
	ended.Store(true)
	waitCount(t, "requests", &fs.started, 2)
	if fs.gateMissed.Load() {
		t.Fatal("the reply went on before the test saw the message queued")
	}
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
