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

// answerApproval presses key once the keyboard has been still for the approval wait (again,
// should a loaded machine have taken it for typing) until want appears, and waits for want.
func (p *ptyTerm) answerApproval(key, want string) {
	p.t.Helper()
	p.pressUntil(key, want, 20*testApprovalQuiet)
}

// pressUntil presses key after being still for still, and waits for want. Under load Run may
// see the key and the end of its approval wait at once and take the key as too soon; nothing
// printed tells that from a slow answer, so the key is pressed again only after a wait that
// doubles each time, and want still only needs to come within the test's patience.
func (p *ptyTerm) pressUntil(key, want string, still time.Duration) {
	p.t.Helper()
	for wait := time.Second; ; wait *= 2 {
		time.Sleep(still)
		p.send(key)
		pressAgain := time.Now().Add(wait)
		shown := func() bool { return strings.Contains(p.output()[p.from:], want) }
		if !testwait.For(p.t, func() bool { return shown() || time.Now().After(pressAgain) }) {
			break
		}
		if shown() {
			p.waitFor(want)
			return
		}
	}
	p.t.Fatalf("pressing %q never answered the approval; output:\n%s", key, p.output())
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
