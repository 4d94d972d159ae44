package linemode

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
)

// ptyTerm is a pseudo-terminal: Run gets the slave as its input and output, the test types
// into the master and reads everything Run printed (and the terminal echoed) from it.
type ptyTerm struct {
	t             *testing.T
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
	from          int // waitFor looks after this offset
}

func openPTY(t *testing.T) *ptyTerm {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n int
	ctlErr := control(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return err
		}
		n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN)
		return err
	})
	if ctlErr != nil {
		t.Fatal(ctlErr)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &ptyTerm{t: t, master: master, slave: slave}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		slave.Close()
		master.Close()
		<-done
	})
	return p
}

func control(f *os.File, op func(fd int) error) error {
	conn, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var opErr error
	if err := conn.Control(func(fd uintptr) { opErr = op(int(fd)) }); err != nil {
		return err
	}
	return opErr
}

func (p *ptyTerm) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitFor waits, for as long as the test's patience lasts, until s appears after the last
// thing waited for.
func (p *ptyTerm) waitFor(s string) {
	p.t.Helper()
	var out string
	at := -1
	if !testwait.For(p.t, func() bool {
		out = p.output()
		at = strings.Index(out[p.from:], s)
		return at >= 0
	}) {
		p.t.Fatalf("%q did not appear; output:\n%s", s, out)
	}
	p.from += at + len(s)
}

// appears reports whether s shows up after the last thing waited for within d; it moves
// nothing. Only a check that s does not appear may rely on d: a loaded machine makes
// anything appear later, never sooner.
func (p *ptyTerm) appears(s string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if strings.Contains(p.output()[p.from:], s) {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// answerApproval answers the approval question with key and waits for want (see pressUntil).
func (p *ptyTerm) answerApproval(key, want string) {
	p.t.Helper()
	p.pressUntil(key, want)
}

// pressUntil presses key and waits for want. A key that comes before the question may be
// answered (the keyboard must be still for the approval wait first) is not taken, and the line
// mode says so once the question is ready: then the key is pressed again. Nothing is pressed
// twice otherwise, so no key is left over for the prompt that follows. The caller must not
// have left a key that was not taken unannounced (wait for chat.ApprovalNotTaken first).
func (p *ptyTerm) pressUntil(key, want string) {
	p.t.Helper()
	for {
		pressed := len(p.output())
		p.send(key)
		shown, notTaken := false, false
		if !testwait.For(p.t, func() bool {
			out := p.output()
			shown = strings.Contains(out[p.from:], want)
			notTaken = strings.Contains(out[pressed:], chat.ApprovalNotTaken)
			return shown || notTaken
		}) {
			p.t.Fatalf("pressing %q never answered the approval; output:\n%s", key, p.output())
		}
		if shown {
			p.waitFor(want)
			return
		}
	}
}

func (p *ptyTerm) send(s string) {
	p.t.Helper()
	if _, err := p.master.WriteString(s); err != nil {
		p.t.Fatal(err)
	}
}

func (p *ptyTerm) termios() unix.Termios {
	p.t.Helper()
	var tio *unix.Termios
	if err := control(p.slave, func(fd int) (err error) { tio, err = unix.IoctlGetTermios(fd, unix.TCGETS); return err }); err != nil {
		p.t.Fatal(err)
	}
	return *tio
}

func (p *ptyTerm) setTermios(tio unix.Termios) {
	p.t.Helper()
	if err := control(p.slave, func(fd int) error { return unix.IoctlSetTermios(fd, unix.TCSETS, &tio) }); err != nil {
		p.t.Fatal(err)
	}
}

// expectMode checks the terminal is in mode m, with ISIG, OPOST and ICRNL kept either way.
// The program switches modes right after it prints, so the mode is waited for (a loaded
// machine may take a while), not read once.
func (p *ptyTerm) expectMode(m inputMode) {
	p.t.Helper()
	want := m == lineInput
	var tio unix.Termios
	var canon, echo bool
	if !testwait.For(p.t, func() bool {
		tio = p.termios()
		canon, echo = tio.Lflag&unix.ICANON != 0, tio.Lflag&unix.ECHO != 0
		return canon == want && echo == want
	}) {
		p.t.Fatalf("ICANON %v ECHO %v, want both %v", canon, echo, want)
	}
	if tio.Lflag&unix.ISIG == 0 || tio.Oflag&unix.OPOST == 0 || tio.Iflag&unix.ICRNL == 0 {
		p.t.Fatalf("ISIG, OPOST or ICRNL was cleared: %+v", tio)
	}
	if m == keyInput && (tio.Cc[unix.VMIN] != 1 || tio.Cc[unix.VTIME] != 0) {
		p.t.Fatalf("VMIN %d VTIME %d, want 1 and 0", tio.Cc[unix.VMIN], tio.Cc[unix.VTIME])
	}
}

// expectNoEscape checks nothing printed or echoed holds an ESC byte.
func (p *ptyTerm) expectNoEscape() {
	p.t.Helper()
	if out := p.output(); strings.IndexByte(out, 0x1b) >= 0 {
		p.t.Fatalf("an ESC byte reached the terminal:\n%q", out)
	}
}
