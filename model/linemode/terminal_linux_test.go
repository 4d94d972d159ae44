package linemode

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	wait := start(t, sessionOptions(t, fixtureURL(t), "slow-drip", t.TempDir(), true, p.slave, p.slave))
	p.waitFor("You: ")
	p.expectMode(lineInput)
	p.send("drip please\r")
	p.waitFor(writing)
	p.expectMode(keyInput)
	time.Sleep(100 * time.Millisecond) // a few drips
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
// Tab goes to the composer instead, whose next line is a new message.
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
	p.send("two\r")
	p.waitFor("Retry is available")
	p.send("\t")
	p.waitFor("You: ")
	p.expectMode(lineInput)
	p.send("three\r")
	p.waitFor(writing)
	p.waitFor(answerReady + "\r\nYou: ")
	p.send("\x04")
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	p.expectNoEscape()
}

// TestTerminalApprovals: y runs the side-effecting tool, n declines it, a runs it and every
// later call of it in the session without asking again.
func TestTerminalApprovals(t *testing.T) {
	const question = "Status: Allow mark with text=hi? y runs it, n declines, a allows mark for this session. Esc stops."
	for _, tc := range []struct {
		key, line string
		ran       bool
	}{
		{"y", "Tool: mark started: text=hi\r\nTool: mark done in ", true},
		{"n", "Tool: mark not run: The user declined to run this tool.", false},
		{"a", "Tool: mark started: text=hi\r\nTool: mark done in ", true},
	} {
		t.Run(tc.key, func(t *testing.T) {
			dir := t.TempDir()
			p := openPTY(t)
			wait := start(t, sessionOptions(t, fixtureURL(t), "mark", dir, true, p.slave, p.slave))
			p.waitFor("You: ")
			p.send("note hi\r")
			p.waitFor("Tool: mark is waiting for your approval\r\n" + question + "\r\n")
			p.expectMode(keyInput)
			p.send(tc.key)
			p.waitFor(tc.line)
			p.waitFor("Assistant: Tool results received")
			p.waitFor(answerReady + "\r\nYou: ")
			_, err := os.Stat(filepath.Join(dir, "marker.txt"))
			if ran := err == nil; ran != tc.ran {
				t.Fatalf("mark ran: %v, want %v", ran, tc.ran)
			}
			if tc.key == "a" {
				p.send("again\r")
				p.waitFor("Tool: mark started: text=hi")
				p.waitFor(answerReady + "\r\nYou: ")
				if strings.Count(p.output(), question) != 1 {
					t.Fatalf("asked again after a:\n%s", p.output())
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
	case <-time.After(5 * time.Second):
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
// terminal while phasechat was stopped); SIGINT stops the reply and ends Run cleanly.
func TestTerminalSignals(t *testing.T) {
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
	deadline := time.Now().Add(2 * time.Second)
	for p.termios().Lflag&syscall.ICANON != 0 {
		if time.Now().After(deadline) {
			t.Fatal("SIGCONT did not set single-key mode again")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	p.waitFor(stopped)
	if got := p.termios(); got != orig {
		t.Fatalf("terminal not restored after SIGINT:\n%+v\nwant\n%+v", got, orig)
	}
}
