package linemode

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

const (
	stopped     = "Status: Stopped. The partial reply is kept."
	answerReady = "Status: Answer ready."
)

// TestTerminalEscStops: over slow-drip, Esc stops the reply (the partial text is printed,
// then the Stopped status); an arrow key does not. The terminal reads lines with echo at the
// prompt, single keys without echo while the reply streams (ISIG, OPOST, ICRNL kept), and is
// exactly as it was once Ctrl+D on the empty prompt has ended Run. Nothing printed or echoed
// holds an ESC byte.
func TestTerminalEscStops(t *testing.T) {
	p := openPTY(t)
	orig := p.termios()
	f := newHeldFixtures(t, 3)
	frames := &f.frames
	wait := start(t, withoutStallWatch(sessionOptions(t, f.url, "slow-drip", t.TempDir(), true, p.slave, p.slave)))
	p.waitFor("You: ")
	p.expectMode(lineInput)
	p.send("drip please\r")
	p.waitFor(writing)
	p.expectMode(keyInput)
	// The role frame and two drips are sent, and the answer waits there: Run has them to read
	// before the keys below are handled (Esc after the escape wait), and no more come.
	if !testwait.For(t, func() bool { return frames.Load() >= 3 }) {
		t.Fatalf("the server wrote %d frames of slow-drip, want 3", frames.Load())
	}
	p.send("\x1b[A")
	time.Sleep(2 * escWait)
	if strings.Contains(p.output(), "Stopped") {
		t.Fatalf("an arrow key stopped the reply:\n%s", p.output())
	}
	p.send("\x1b")
	p.waitFor("Assistant: drip1 drip2")
	p.waitFor(stopped + "\r\nYou: ")
	p.expectMode(lineInput)
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if got := p.termios(); got != orig {
		t.Fatalf("terminal not restored:\n%+v\nwant\n%+v", got, orig)
	}
	p.expectNoEscape()
	if n := len(statusLines(p.output())); n != 2 {
		t.Fatalf("%d status lines for two phase changes:\n%s", n, p.output())
	}
}

// TestTerminalRetryAndTab: over flaky (odd requests fail), Enter in the error phase retries;
// Tab goes to the composer instead, where an empty line goes back to Retry and a message is
// sent as a new one.
func TestTerminalRetryAndTab(t *testing.T) {
	p := openPTY(t)
	wait := start(t, sessionOptions(t, fixtureURL(t), "flaky", t.TempDir(), true, p.slave, p.slave))
	p.waitFor("You: ")
	p.send("one\r")
	p.waitFor("Retry is available: Enter retries, Tab goes to the composer.\r\n")
	p.expectMode(keyInput)
	p.send("\r")
	p.waitFor(writing)
	p.waitFor("Assistant: Hello! This is a plain streamed reply")
	p.waitFor(answerReady + "\r\nYou: ")
	p.send("two\r") // request 3 fails
	p.waitFor("Retry is available")
	p.send("\t")
	p.waitFor("You: ")
	p.expectMode(lineInput)
	p.send("\r") // an empty line: back to Retry
	p.waitFor("\r\n" + backToRetry + "\r\n")
	p.expectMode(keyInput)
	p.send("\r") // request 4 succeeds
	p.waitFor(writing)
	p.waitFor(answerReady + "\r\nYou: ")
	p.send("three\r") // request 5 fails
	p.waitFor("Retry is available")
	p.send("\t")
	p.waitFor("You: ")
	p.send("four\r") // a new message from the composer: request 6 succeeds
	p.waitFor(writing)
	p.waitFor(answerReady + "\r\nYou: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	p.expectNoEscape()
}

// TestTerminalApprovals: y runs the side-effecting tool, n declines it, A runs it and every
// later call of it in the session without asking again.
func TestTerminalApprovals(t *testing.T) {
	const question = "Status: Allow mark with text=hi? y runs it, n declines, A allows mark for this session. Esc stops."
	for _, tc := range []struct {
		key, line string
		ran       bool
	}{
		{"y", "Tool: mark started: text=hi\r\nTool: mark done in ", true},
		{"n", "Tool: mark not run: The user declined to run this tool.", false},
		{"A", "Tool: mark started: text=hi\r\nTool: mark done in ", true},
	} {
		t.Run(tc.key, func(t *testing.T) {
			dir := t.TempDir()
			p := openPTY(t)
			wait := start(t, sessionOptions(t, fixtureURL(t), "mark", dir, true, p.slave, p.slave))
			p.waitFor("You: ")
			p.send("note hi\r")
			p.waitFor("Tool: mark is waiting for your approval\r\n" + question + "\r\n")
			p.expectMode(keyInput)
			p.answerApproval(tc.key, tc.line)
			p.waitFor("Assistant: Tool results received")
			p.waitFor(answerReady + "\r\nYou: ")
			_, err := os.Stat(filepath.Join(dir, "marker.txt"))
			if ran := err == nil; ran != tc.ran {
				t.Fatalf("mark ran: %v, want %v", ran, tc.ran)
			}
			if tc.key == "A" {
				p.send("again\r")
				p.waitFor("Tool: mark started: text=hi")
				p.waitFor(answerReady + "\r\nYou: ")
				if strings.Count(p.output(), question) != 1 {
					t.Fatalf("asked again after A:\n%s", p.output())
				}
			}
			p.send("\x04")
			if err := wait(); err != nil {
				t.Fatal(err)
			}
			p.expectNoEscape()
		})
	}
}

// panicWriter panics on the write that holds trigger, recording the terminal's mode then.
type panicWriter struct {
	p       *ptyTerm
	trigger string
	mode    inputMode
}

func (w *panicWriter) Write(b []byte) (int, error) {
	if strings.Contains(string(b), w.trigger) {
		w.mode = lineInput
		if w.p.termios().Lflag&syscall.ICANON == 0 {
			w.mode = keyInput
		}
		panic("writer broke")
	}
	return w.p.slave.Write(b)
}

// TestTerminalRestoredAfterPanic: a panic in Run, while the terminal is in single-key mode,
// still puts the terminal back.
func TestTerminalRestoredAfterPanic(t *testing.T) {
	p := openPTY(t)
	orig := p.termios()
	w := &panicWriter{p: p, trigger: answerReady}
	o := sessionOptions(t, fixtureURL(t), "text", t.TempDir(), true, p.slave, w)
	recovered := make(chan any, 1)
	go func() {
		defer func() { recovered <- recover() }()
		Run(o)
	}()
	p.waitFor("You: ")
	p.send("hi\r")
	select {
	case r := <-recovered:
		if r != "writer broke" {
			t.Fatalf("recovered %v", r)
		}
	case <-testwait.After(t):
		t.Fatal("no panic")
	}
	if w.mode != keyInput {
		t.Fatal("the panic came while the terminal read lines: the test proves nothing")
	}
	if got := p.termios(); got != orig {
		t.Fatalf("terminal not restored after a panic:\n%+v\nwant\n%+v", got, orig)
	}
}

// TestTerminalSignals: SIGCONT sets single-key mode again (a shell may have changed the
// terminal while phasechat was stopped); SIGINT, SIGTERM and SIGHUP stop the reply and end
// Run cleanly, with the terminal as it was.
func TestTerminalSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			p := openPTY(t)
			orig := p.termios()
			wait := start(t, sessionOptions(t, fixtureURL(t), "slow-drip", t.TempDir(), true, p.slave, p.slave))
			p.waitFor("You: ")
			p.send("drip\r")
			p.waitFor(writing)
			p.expectMode(keyInput)
			p.setTermios(orig)
			if err := syscall.Kill(os.Getpid(), syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			testwait.Until(t, func() bool { return p.termios().Lflag&syscall.ICANON == 0 },
				"SIGCONT did not set single-key mode again")
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			if err := wait(); err != nil {
				t.Fatal(err)
			}
			p.waitFor(stopped)
			if got := p.termios(); got != orig {
				t.Fatalf("terminal not restored after %v:\n%+v\nwant\n%+v", sig, got, orig)
			}
		})
	}
}

// TestModeChangeDiscardsUnreadInput: input typed but not read yet is discarded when the mode
// changes (keys pressed during a reply, the rest of a pasted block), and kept when the same
// mode is set again (after SIGCONT), and restore puts back the saved settings.
func TestModeChangeDiscardsUnreadInput(t *testing.T) {
	p := openPTY(t)
	orig := p.termios()
	term := openTerminal(p.slave)
	if term == nil {
		t.Fatal("a pty is not taken for a terminal")
	}
	pending := func() int {
		var n int
		if err := control(p.slave, func(fd int) (err error) { n, err = unix.IoctlGetInt(fd, unix.TIOCINQ); return err }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitPending := func(want int) {
		if !testwait.For(t, func() bool { return pending() == want }) {
			t.Fatalf("%d bytes unread, want %d", pending(), want)
		}
	}
	for _, step := range []struct {
		mode     inputMode
		typed    string
		leftOver int
	}{
		{lineInput, "kept\n", 5}, // the mode it starts in: typeahead stays
		{keyInput, "", 0},        // line -> key: the pasted rest is dropped
		{keyInput, "y\n", 2},     // the same mode again: kept
		{lineInput, "", 0},       // key -> line: keys pressed meanwhile dropped
	} {
		if step.typed != "" {
			before := pending()
			p.send(step.typed)
			waitPending(before + len(step.typed))
		}
		if err := term.set(step.mode); err != nil {
			t.Fatal(err)
		}
		p.expectMode(step.mode)
		if got := pending(); got != step.leftOver {
			t.Fatalf("after setting mode %d: %d bytes unread, want %d", step.mode, got, step.leftOver)
		}
	}
	if err := term.restore(); err != nil {
		t.Fatal(err)
	}
	if got := p.termios(); got != orig {
		t.Fatalf("restore: %+v, want %+v", got, orig)
	}
}

// TestTerminalEscAndRetryInEachWire: in each wire format, Esc stops a reply whose call's
// arguments stall, and Enter in the error phase after an error event retries.
func TestTerminalEscAndRetryInEachWire(t *testing.T) {
	for _, wire := range []wire.Wire{wire.WireAnthropic, wire.WireResponses} {
		t.Run(string(wire), func(t *testing.T) {
			base := fixtureURL(t)
			p := openPTY(t)
			o := sessionOptions(t, base, string(wire)+"-stall-between-tool-chunks", t.TempDir(), true, p.slave, p.slave)
			o.Performer.Client.Wire = wire
			wait := start(t, o)
			p.waitFor("You: ")
			p.send("read it\r")
			p.waitFor("read_file")
			p.send("\x1b")
			p.waitFor(stopped + "\r\nYou: ")
			p.send("\x04")
			if err := wait(); err != nil {
				t.Fatal(err)
			}

			q := openPTY(t)
			o = sessionOptions(t, base, string(wire)+"-error-event", t.TempDir(), true, q.slave, q.slave)
			o.Performer.Client.Wire = wire
			wait = start(t, o)
			q.waitFor("You: ")
			q.send("hello\r")
			q.waitFor("The server sent an error: ")
			q.waitFor("Retry is available: Enter retries, Tab goes to the composer.\r\n")
			q.send("\r")
			q.waitFor(writing)
			q.waitFor("Retry is available")
			q.send("\t")
			q.waitFor("You: ")
			q.send("\x04")
			if err := wait(); err != nil {
				t.Fatal(err)
			}
			q.expectNoEscape()
		})
	}
}

// TestTerminalTooLongConversationFocusesTheComposer: over http-400 (the conversation is too
// long for the model), retrying cannot help: the failure leaves the terminal reading lines at
// the prompt, its status says so instead of advising Enter, and an empty line still reaches
// Retry.
func TestTerminalTooLongConversationFocusesTheComposer(t *testing.T) {
	p := openPTY(t)
	wait := start(t, sessionOptions(t, fixtureURL(t), "http-400", t.TempDir(), true, p.slave, p.slave))
	p.waitFor("You: ")
	p.send("one\r")
	p.waitFor("too long")
	p.waitFor(composerFirst + "\r\nYou: ")
	p.expectMode(lineInput)
	if strings.Contains(p.output(), phase.RetryHint) {
		t.Fatalf("the status advises Enter to retry while the composer has the focus:\n%s", p.output())
	}
	p.send("\r") // an empty line: to Retry
	p.waitFor("\r\n" + backToRetry + "\r\n")
	p.expectMode(keyInput)
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	p.expectNoEscape()
}
