package linemode

import (
	"strings"
	"testing"
)

// heldLong is a session on p over the long reply, each answer held after its first line until
// the test lets it go on: Esc there comes after the reply's first text and before its end.
func heldLong(t *testing.T, p *ptyTerm) (*heldFixtures, Options) {
	t.Helper()
	f := newHeldFixtures(t, 6)
	return f, withoutStallWatch(sessionOptions(t, f.url, "long", t.TempDir(), true, p.slave, p.slave))
}

// TestTerminalQueueWhileStreaming: over long (held, see heldLong), a line typed while the reply streams (single keys, no echo) is queued on
// Enter and said in words, and sent as the next message when the reply ends; /queue then says
// the queue is empty.
func TestTerminalQueueWhileStreaming(t *testing.T) {
	p := openPTY(t)
	f, o := heldLong(t, p)
	wait := start(t, o)
	p.waitFor("You: ")
	p.send("count please\r")
	p.waitFor(writing)
	p.expectMode(keyInput)
	p.send("next onx\x7fe\r")
	p.waitFor("Note: Queued: next one, sent when this reply ends.")
	f.let(1)
	p.waitFor("Note: Sending the queued message: next one")
	p.waitFor("Assistant: Line 1: the quick brown fox jumps over the lazy dog.")
	p.send("\x1b")
	p.waitFor(stopped + "\r\nYou: ")
	p.send("/queue\r")
	p.waitFor("Note: No message is queued.")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}

// TestTerminalQueueSaysEachSend: two queued messages with the same text are each said when
// they are sent.
func TestTerminalQueueSaysEachSend(t *testing.T) {
	p := openPTY(t)
	f, o := heldLong(t, p)
	wait := start(t, o)
	p.waitFor("You: ")
	p.send("count please\r")
	p.waitFor(writing)
	p.expectMode(keyInput)
	p.send("again\r")
	p.waitFor("Note: Queued: again, sent when this reply ends.")
	p.send("again\r")
	p.waitFor("Note: Queued: again, sent when this reply ends.")
	f.let(1)
	p.waitFor("Note: Sending the queued message: again")
	p.waitFor("Assistant: Line 1: the quick brown fox jumps over the lazy dog.")
	f.let(2)
	p.waitFor("Note: Sending the queued message: again")
	p.waitFor("Assistant: Line 1: the quick brown fox jumps over the lazy dog.")
	p.send("\x1b")
	p.waitFor(stopped + "\r\nYou: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}

// TestTerminalQueueWaitsAfterStop: a message queued before Esc waits, the line mode says so
// and how to send it, and /queue send sends it.
func TestTerminalQueueWaitsAfterStop(t *testing.T) {
	p := openPTY(t)
	_, o := heldLong(t, p)
	wait := start(t, o)
	p.waitFor("You: ")
	p.send("count please\r")
	p.waitFor(writing)
	p.waitFor("Assistant: Line 1: the quick brown fox jumps over the lazy dog.")
	p.expectMode(keyInput)
	p.send("later\r")
	p.waitFor("Note: Queued: later, sent when this reply ends.")
	p.send("\x1b")
	p.waitFor("Note: 1 queued message waits: /queue send sends it now, /queue clear drops it.")
	p.waitFor("You: ")
	p.send("/queue send\r")
	p.waitFor("Note: Sending the queued message: later")
	p.waitFor(writing)
	p.waitFor("Assistant: Line 1: the quick brown fox jumps over the lazy dog.")
	p.send("\x1b")
	p.waitFor(stopped + "\r\nYou: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}

// TestTerminalQueuedMentionSendsTheFile: a line queued while the reply streams sends the file
// its @mention names, said in words when queued, as a line sent at once does.
func TestTerminalQueuedMentionSendsTheFile(t *testing.T) {
	p := openPTY(t)
	f, o := heldLong(t, p)
	o.Files = lineFiles{"b.md": true}
	wait := start(t, o)
	p.waitFor("You: ")
	p.send("count please\r")
	p.waitFor(writing)
	p.expectMode(keyInput)
	p.send("read @b.md\r")
	p.waitFor("Note: attached: b.md (1 line).")
	p.waitFor("Note: Queued: read @b.md, sent when this reply ends.")
	f.let(1)
	p.waitFor("Note: Sending the queued message: read @b.md")
	p.waitFor("Assistant: Line 1: the quick brown fox jumps over the lazy dog.")
	p.send("\x1b")
	p.waitFor(stopped + "\r\nYou: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, m := range o.Chat.History {
		for _, a := range m.Attachments {
			sent = append(sent, m.Text()+": "+a.Name)
		}
	}
	if strings.Join(sent, ",") != "read @b.md: b.md" {
		t.Errorf("the messages carried %v", sent)
	}
}

// TestTerminalQueuedSendComesAfterTheReplysLastLine: a reply whose last line has no newline
// (the usual end) is said whole before the note that the queued message is sent, so the
// answer is never heard as the queued message's.
func TestTerminalQueuedSendComesAfterTheReplysLastLine(t *testing.T) {
	p := openPTY(t)
	f := newHeldFixtures(t, 3)
	wait := start(t, withoutStallWatch(sessionOptions(t, f.url, "text", t.TempDir(), true, p.slave, p.slave)))
	p.waitFor("You: ")
	p.send("hello\r")
	p.waitFor(writing)
	p.expectMode(keyInput)
	p.send("next one\r")
	p.waitFor("Note: Queued: next one, sent when this reply ends.")
	f.let(1)
	p.waitFor("Note: Sending the queued message: next one")
	out := p.output()
	reply := strings.Index(out, "sent one word at a time.")
	if sent := strings.Index(out, "Note: Sending the queued message"); reply < 0 || reply > sent {
		t.Fatalf("the reply's last line is not said before the queued message is sent:\n%s", out)
	}
	f.let(2)
	p.waitFor("You: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}
