package tui

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// helpHas reports whether the help line offers keys to do something whose words start with does.
func (h *harness) helpHas(keys, does string) bool {
	for _, k := range h.m.help(true) {
		if k.Keys == keys && strings.HasPrefix(k.Does, does) {
			return true
		}
	}
	return false
}

// A command Entered behind queued messages keeps its place: it runs after the reply and the
// messages queued before it have been answered (they were typed for the settings it changes),
// and the status line counts what it waits for; once it has run the note is gone.
func TestACommandEnteredBehindQueuedMessagesRunsAfterThem(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("first")
	h.submit("second")
	h.typeText("/system be brief")
	h.send(keyEnter)
	if got := h.status(); !strings.HasPrefix(got, "/system runs after the reply and 2 queued messages (") {
		t.Fatalf("status while the command waits behind two queued messages: %q", got)
	}
	for len(h.server.requests()) < 2 {
		h.feedStream()
	}
	if got := h.status(); !strings.HasPrefix(got, "/system runs after the reply and the queued message (") {
		t.Fatalf("status once the first queued message went: %q", got)
	}
	h.feedAll()
	if reqs := h.server.requests(); len(reqs) != 3 || h.lastSent() != "second" || h.lastRequestHas("be brief") {
		t.Fatalf("%d requests, the last sent %q with the system prompt set after it: %v", len(reqs), h.lastSent(), h.lastRequestHas("be brief"))
	}
	if h.composer() != "" || h.status() == "" || strings.Contains(h.status(), "runs after") {
		t.Fatalf("after the command ran: composer %q, status %q", h.composer(), h.status())
	}
	h.submit("third")
	if !h.lastRequestHas("be brief") {
		t.Fatal("the command did not run")
	}
}

// Once a command that waited for the reply has run, the screen's composer row is empty: the
// reply's end redraws the composer, though it came as a stream message.
func TestTheComposerRowIsEmptyOnceAWaitingCommandRan(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.typeText("/system be brief")
	h.send(keyEnter)
	if !strings.Contains(h.m.View().Content, "│ /system be brief") {
		t.Fatalf("the waiting command is not drawn in the composer:\n%s", h.m.View().Content)
	}
	h.feedAll()
	if v := h.m.View().Content; strings.Contains(v, "/system be brief") {
		t.Fatalf("composer %q, but the screen still shows the command:\n%s", h.composer(), v)
	}
}

// /queue acts on the queue itself: Entered while a reply streams behind two queued messages,
// /queue clear drops them at once, before either is sent.
func TestQueueClearEnteredWhileAReplyStreamsDropsTheQueueAtOnce(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("A")
	h.submit("B")
	h.submit("/queue clear")
	if got := h.m.chat.Queued(); len(got) != 0 || h.composer() != "" || !strings.Contains(h.status(), "Dropped 2 queued messages") {
		t.Fatalf("after /queue clear: queued %q, composer %q, status %q", got, h.composer(), h.status())
	}
	h.feedAll()
	if n := len(h.server.requests()); n != 1 {
		t.Fatalf("%d requests: the queue was sent before /queue clear ran", n)
	}
}

// /help and /usage only show what is known: Entered while a reply streams, they run at once.
func TestHelpAndUsageRunAtOnceWhileAReplyStreams(t *testing.T) {
	for _, line := range []string{"/help", "/usage"} {
		h := filesHarness(t)
		h.submit("hello")
		h.feedStream()
		before := len(h.m.chat.Entries())
		h.submit(line)
		if h.composer() != "" || len(h.m.chat.Entries()) != before+1 || !h.m.chat.State.Phase.Streaming() {
			t.Fatalf("%s while the reply streams: composer %q, %d entries (were %d)", line, h.composer(), len(h.m.chat.Entries()), before)
		}
		if h.offers("enter", "run after reply") {
			t.Fatalf("the help line offers to run %s after the reply", line)
		}
	}
}

// Esc stops the reply a command waits for: the command does not run, it stays in the composer
// and the help line says it waits for its own Enter, which runs it.
func TestAStopLeavesTheWaitingCommandInTheComposerNotRun(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	for range 5 { // the reply has begun: Esc keeps it, rather than taking the message back
		h.feedStream()
	}
	h.typeText("/retry")
	h.send(keyEnter)
	h.send(keyEsc)
	h.feedAll()
	if n := len(h.server.requests()); n != 1 || h.composer() != "/retry" {
		t.Fatalf("after Esc: %d requests, composer %q", n, h.composer())
	}
	if !h.helpHas("enter", "run /retry (not run: the reply was stopped)") || h.offers("enter", "send") {
		t.Fatalf("the help line does not say the command waits for its Enter: %+v", h.m.help(true))
	}
	if strings.Contains(h.status(), "runs after") {
		t.Fatalf("the status still says the command runs after the reply: %q", h.status())
	}
	h.send(keyEnter)
	if n := len(h.server.requests()); n != 2 || h.composer() != "" {
		t.Fatalf("Enter on the kept command: %d requests, composer %q", n, h.composer())
	}
}

// A failure never runs the command that waited for the reply: the error's own status stands,
// the command stays in the composer (drawn there), and the help line says Tab then Enter runs it.
func TestAFailureLeavesTheWaitingCommandInTheComposerNotRun(t *testing.T) {
	h := newHarness(t, "error-frame", 100, 20)
	h.submit("hello")
	h.typeText("/system be brief")
	h.send(keyEnter)
	h.feedAll()
	if h.m.chat.State.Phase != phase.Error || h.composer() != "/system be brief" {
		t.Fatalf("after the failure: phase %v, composer %q", h.m.chat.State.Phase, h.composer())
	}
	if note := h.status(); note != "" {
		t.Fatalf("a note covers the error's status: %q", note)
	}
	if !h.helpHas("tab, enter", "run /system (not run: the request failed)") {
		t.Fatalf("the help line does not say the command waits for its Enter: %+v", h.m.help(true))
	}
	if !strings.Contains(h.m.View().Content, "│ /system be brief") {
		t.Fatalf("the kept command is not drawn in the composer:\n%s", h.m.View().Content)
	}
}

// A signal quits while a command waits for the reply: the command is dropped, nothing new is
// sent.
func TestASignalDropsTheWaitingCommand(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.typeText("/retry")
	h.send(keyEnter)
	h.send(SignalMsg{Signal: syscall.SIGTERM})
	for len(h.pending) > 0 {
		msg := h.pending[0]
		h.pending = h.pending[1:]
		if _, ok := msg.(chat.StreamMsg); !ok {
			h.send(msg)
		}
	}
	if n := len(h.server.requests()); n != 1 || h.m.afterReply != "" || h.m.notRun != "" {
		t.Fatalf("after the signal: %d requests, waiting %q, kept %q", n, h.m.afterReply, h.m.notRun)
	}
}

// Ctrl+C that clears a waiting command clears its waiting: the same line typed again waits for
// its own Enter.
func TestCtrlCClearsTheWaitingOfTheCommandItClears(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.typeText("/attach notes.txt")
	h.send(keyEnter)
	h.send(keyCtrlC)
	if h.composer() != "" || strings.Contains(h.status(), "runs after") {
		t.Fatalf("after ctrl+c: composer %q, status %q", h.composer(), h.status())
	}
	h.typeText("/attach notes.txt")
	h.feedAll()
	if h.composer() != "/attach notes.txt" || len(h.m.chat.Attached()) != 0 {
		t.Fatalf("the retyped command ran without its Enter: composer %q, attached %d", h.composer(), len(h.m.chat.Attached()))
	}
}

// /attach clear Entered while an earlier /attach's files are still being read keeps the order
// typed: the files read after it do not attach.
func TestAttachClearEnteredWhileAnAttachIsReadDropsItsFiles(t *testing.T) {
	h := filesHarness(t)
	h.submit("/attach notes.txt")
	h.submit("/attach clear")
	h.send(takeNext[filesRead](h))
	if n := len(h.m.chat.Attached()); n != 0 || !strings.Contains(h.status(), "The attached files are dropped") {
		t.Fatalf("after the read: %d attached, status %q", n, h.status())
	}
}

// badMentions is fakeFiles where a mention of @bad cannot be read.
type badMentions struct{ fakeFiles }

func (f badMentions) Mentioned(text string) ([]wire.Attachment, []string, error) {
	if strings.Contains(text, "@bad") {
		return nil, nil, errors.New("cannot attach bad: there is no such file")
	}
	return f.fakeFiles.Mentioned(text)
}

// Two queued messages whose mentioned files cannot be read both come back to the composer, in
// the order typed: neither is lost.
func TestTwoMessagesWhoseFilesFailBothComeBack(t *testing.T) {
	h := filesHarness(t)
	h.m.files = badMentions{fakeFiles{have: map[string]bool{"notes.txt": true}}}
	h.submit("hello")
	h.feedStream()
	h.submit("one @bad")
	h.submit("two @bad also")
	h.send(takeNext[filesRead](h))
	h.send(takeNext[filesRead](h))
	if got := h.composer(); got != "one @bad\ntwo @bad also" || len(h.m.chat.Queued()) != 0 {
		t.Fatalf("composer %q, queued %q", got, h.m.chat.Queued())
	}
}

// /queue clear drops the queued messages still waiting for their files too.
func TestQueueClearDropsMessagesWaitingForTheirFiles(t *testing.T) {
	h := filesHarness(t)
	h.submit("hello")
	h.feedStream()
	h.submit("A")
	h.submit("review @notes.txt")
	h.submit("/queue clear")
	if got := h.m.queuedTexts(); len(got) != 0 || !strings.Contains(h.status(), "Dropped 2 queued messages") {
		t.Fatalf("after /queue clear: queued %q, status %q", got, h.status())
	}
	h.feedAll()
	if n := len(h.server.requests()); n != 1 {
		t.Fatalf("%d requests: a message waiting for its files was sent after /queue clear", n)
	}
}
