package mcp

import (
	"context"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/phasechat/phasechat/internal/reaper"
)

// Grace periods when stopping a stdio server: closing its stdin asks it to exit; then its
// process group gets SIGTERM; then SIGKILL.
const (
	stdinGrace = 500 * time.Millisecond
	termGrace  = 500 * time.Millisecond
)

// child is a started stdio server: its process (leading its own process group), the pipes
// the SDK talks over, and the copier of its stderr to the log and to a tail kept for
// messages. It is reaped by its own goroutine, so it never lingers as a zombie. Every process
// of it carries mark in its environment, and watch ends them all should we die first.
type child struct {
	cmd    *exec.Cmd
	mark   string
	watch  *reaper.Watch
	stdin  *os.File // our end
	stdout *os.File // our end
	exited chan struct{}
	copied chan struct{}
	stderr *stderrTail
}

// startChild starts argv in dir with exactly env (and a run mark of its own: reaper.NewMark),
// its stderr going to log (which may be nil) and to a tail of its last lines.
func startChild(argv []string, dir string, env []string, log io.Writer) (*child, error) {
	mark, err := reaper.NewMark()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clip(env), mark)
	setProcessGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	// Files, not writers: Wait copies nothing, so it returns when the leader exits.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	watch := reaper.Start(mark)
	err = cmd.Start()
	closeAll(inR, outW, errW)
	if err != nil {
		watch.End()
		closeAll(inW, outR, errR)
		return nil, err
	}
	watch.Group(cmd.Process.Pid)
	c := &child{cmd: cmd, mark: mark, watch: watch, stdin: inW, stdout: outR, exited: make(chan struct{}),
		copied: make(chan struct{}), stderr: &stderrTail{}}
	go func() {
		defer close(c.exited)
		cmd.Wait()
	}()
	go func() {
		defer close(c.copied)
		var w io.Writer = c.stderr
		if log != nil {
			w = io.MultiWriter(c.stderr, &cappedWriter{w: log, left: maxLogBytes})
		}
		io.Copy(w, errR)
		errR.Close()
	}()
	return c, nil
}

// transport is the SDK's view of the child's stdin and stdout.
func (c *child) transport() sdk.Transport {
	return &sdk.IOTransport{Reader: c.stdout, Writer: c.stdin}
}

// stop ends the child: stdin closed, then SIGTERM to its group, then SIGKILL, each after a
// grace period, and finally SIGKILL to whatever is left in its group and (on Linux) to every
// process still carrying its mark, those that left the group included. It returns once the
// leader is reaped and its stderr is drained (or cut off).
func (c *child) stop(ctx context.Context) {
	c.stdin.Close()
	if !waitFor(c.exited, stdinGrace, ctx) {
		signalGroup(c.cmd.Process, sigTerm)
		if !waitFor(c.exited, termGrace, ctx) {
			signalGroup(c.cmd.Process, sigKill)
			<-c.exited
		}
	}
	signalGroup(c.cmd.Process, sigKill) // what the server left running in its group
	reaper.KillMarked(c.mark, c.cmd.Process.Pid)
	c.watch.End()
	// A process that left the group may hold stderr open; the copier then ends with it.
	waitFor(c.copied, termGrace, ctx)
	c.stdout.Close()
}

// Pid is the leader's process id.
func (c *child) Pid() int { return c.cmd.Process.Pid }

func waitFor(ch <-chan struct{}, d time.Duration, ctx context.Context) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// childEnv is a stdio server's whole environment: PATH and HOME from ours, then the
// configured variables with their ${VAR} references expanded. Nothing else of ours, so no
// provider key, reaches the server.
func childEnv(s Server, e environ) ([]string, error) {
	var env []string
	for _, k := range []string{"PATH", "HOME"} {
		if v, ok := e.lookup(k); ok && !e.secrets.Contains(v) {
			if _, overridden := s.Env[k]; !overridden {
				env = append(env, k+"="+v)
			}
		}
	}
	for _, k := range sortedNames(s.Env) {
		if isProviderKey(k) || (e.hidden != nil && e.hidden(k)) {
			return nil, &startError{msg: "env " + k + ": provider keys are never given to MCP servers"}
		}
		v, err := e.expand(s.Env[k])
		if err != nil {
			return nil, &startError{msg: "env " + k + ": " + err.Error()}
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}

// maxStderrTail is how much of a server's stderr is kept for messages.
const maxStderrTail = 4 << 10

// maxLogBytes caps what one session writes of a server's stderr to its log.
const maxLogBytes = 4 << 20

// stderrTail keeps the last bytes a server wrote to stderr.
type stderrTail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > maxStderrTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-maxStderrTail:]...)
	}
	return len(p), nil
}

// lastLines returns up to n of the last non-blank lines written.
func (t *stderrTail) lastLines(n int) []string {
	t.mu.Lock()
	text := string(t.buf)
	t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimRight(l, "\r \t"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// cappedWriter writes until left bytes are used, then notes the cut once and drops the rest.
type cappedWriter struct {
	w    io.Writer
	left int
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	n := len(p)
	if c.left <= 0 {
		return n, nil
	}
	if len(p) > c.left {
		p = p[:c.left]
	}
	c.left -= len(p)
	c.w.Write(p)
	if c.left <= 0 {
		io.WriteString(c.w, "\n[phasechat: the rest of this server's stderr was not logged]\n")
	}
	return n, nil
}
