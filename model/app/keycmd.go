package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/reaper"
)

// KeyCommandTimeout bounds an api_key_cmd run.
const KeyCommandTimeout = 30 * time.Second

// maxKeyOutput caps what is read of a key command's output.
const maxKeyOutput = 64 << 10

// RunKeyCommand runs argv (no shell) and returns its trimmed standard output, the key. Its
// errors say what failed in words and never contain the output: a command that fails may
// have printed the key before failing. It stays in our process group, so that a prompt it
// opens on the terminal (a pinentry) may read it. Every process of it carries a run mark of
// its own: when the timeout or ctx ends it, those are killed with it (on Linux), and should we
// die while it runs, the reaper ends them (internal/reaper). What it leaves running after it
// finished by itself (an agent it started) is left be.
func RunKeyCommand(ctx context.Context, argv []string, timeout time.Duration) (string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return "", errors.New("api_key_cmd is empty")
	}
	mark, err := reaper.NewMark()
	if err != nil {
		return "", fmt.Errorf("the key command %q could not be started: %v", argv[0], err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), mark)
	var out, errOut limitedBuffer
	out.max, errOut.max = maxKeyOutput, 4096
	out.full = cancel // no key is that long: the command is stopped, not read to its end
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = time.Second // a child that keeps the pipes open does not hold us up
	cmd.Cancel = func() error {
		err := cmd.Process.Kill()
		reaper.KillMarked(mark, 0)
		return err
	}
	watch := reaper.Start(mark)
	defer watch.End()
	err = cmd.Run()
	name := argv[0] // only the program: its arguments could hold anything
	switch {
	case out.over:
		return "", fmt.Errorf("the key command %q printed more than %d KiB and was stopped; it should print only the key", name, maxKeyOutput>>10)
	case ctx.Err() == context.DeadlineExceeded:
		return "", fmt.Errorf("the key command %q did not finish within %s and was stopped", name, timeout)
	case errors.Is(err, exec.ErrNotFound):
		return "", fmt.Errorf("the key command %q: %s was not found on $PATH", name, argv[0])
	case err != nil:
		msg := fmt.Sprintf("the key command %q failed (%v)", name, exitText(err))
		if why := lastLine(errOut.String()); why != "" && !strings.Contains(why, strings.TrimSpace(out.String())) {
			msg += ": " + why
		}
		return "", errors.New(msg)
	}
	key := strings.TrimSpace(out.String())
	if key == "" {
		return "", fmt.Errorf("the key command %q printed nothing; it should print the key", name)
	}
	if strings.ContainsAny(key, "\r\n") {
		return "", fmt.Errorf("the key command %q printed more than one line; it should print only the key", name)
	}
	return key, nil
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	return err.Error()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200] + "…"
	}
	return l
}

// limitedBuffer keeps the first max bytes written and notes whether there were more; full,
// when not nil, is called once when there are. It has no ReadFrom (the buffer is not
// embedded): io.Copy must go through Write, or the cap would be bypassed.
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
	full func()
}

func (b *limitedBuffer) String() string { return b.buf.String() }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := b.max - b.buf.Len(); len(p) > room {
		if !b.over && b.full != nil {
			b.full()
		}
		b.over = true
		p = p[:max(room, 0)]
	}
	b.buf.Write(p)
	return n, nil
}
