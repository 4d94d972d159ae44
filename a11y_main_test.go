package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The accessible-mode tests run the real binary (built once: phasechatBinary, in
// e2e_helpers_test.go) in a real terminal: a tmux pane whose raw output bytes are piped to a
// file (tmux pipe-pane), so what is checked is exactly what the terminal received. They skip,
// saying why, when tmux is missing (.ci/run installs it).

var lineSockets atomic.Int64

// linePane is the binary running in a detached tmux session of its own tmux server. Its working
// directory dir holds run.sh, the raw output (out.raw), the exit status (rc) and the
// terminal's settings before and after (stty.before, stty.after, as stty -g prints them).
type linePane struct {
	t      *testing.T
	socket string
	dir    string
	from   int // expect looks after this offset of the raw output
}

// startPane runs the binary with args (and env, VAR=value each) in a fresh tmux pane.
func startLinePane(t *testing.T, dir string, env []string, args ...string) *linePane {
	t.Helper()
	requireTmux(t)
	bin := phasechatBinary(t)
	quoted := []string{quote(bin)}
	for _, a := range args {
		quoted = append(quoted, quote(a))
	}
	for i, e := range env {
		env[i] = quote(e)
	}
	script := strings.Join([]string{
		// Ctrl+C reaches the whole foreground process group: the wrapper must outlive it to
		// record the exit status and the terminal's settings (a trap is reset in the child).
		"trap true INT",
		"while [ ! -e go ]; do sleep 0.01; done",
		"stty -g > stty.before",
		"env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u OPENAI_MODEL -u ACCESSIBLE -u NO_COLOR -u XDG_DATA_HOME HOME=\"$PWD\" XDG_CONFIG_HOME=\"$PWD/config\" " +
			strings.Join(env, " ") + " " + strings.Join(quoted, " "),
		"echo $? > rc.tmp",
		"stty -g > stty.after",
		"mv rc.tmp rc",
	}, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &linePane{t: t, socket: fmt.Sprintf("phasechat-a11y-%d-%d", os.Getpid(), lineSockets.Add(1)), dir: dir}
	t.Cleanup(func() { exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	p.tmux("-f", "/dev/null", "new-session", "-d", "-s", "a11y", "-x", "120", "-y", "40", "-c", dir, "sh run.sh")
	p.tmux("pipe-pane", "-t", "a11y", "-o", "cat >> "+quote(filepath.Join(dir, "out.raw")))
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *linePane) tmux(args ...string) string {
	p.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-L", p.socket}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=") // also when the tests themselves run inside tmux
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// keys sends tmux key names (Enter, Escape, Tab, C-c, C-d, y, ...).
func (p *linePane) keys(keys ...string) {
	p.tmux(append([]string{"send-keys", "-t", "a11y"}, keys...)...)
}

// typeLine types text literally, then Enter.
func (p *linePane) typeLine(text string) {
	p.tmux("send-keys", "-t", "a11y", "-l", text)
	p.keys("Enter")
}

// raw is everything the terminal has received so far.
func (p *linePane) raw() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "out.raw"))
	return string(b)
}

// expect waits (5 s at most) for s to appear in the output after what was last expected.
func (p *linePane) expect(s string) {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := p.raw()
		if i := strings.Index(out[min(p.from, len(out)):], s); i >= 0 {
			p.from += i + len(s)
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%q did not appear; the terminal received:\n%s", s, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// exit waits for the binary to end and checks its exit status and that the terminal's
// settings are exactly what they were before it started.
func (p *linePane) exit(wantCode string) {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		rc, err := os.ReadFile(filepath.Join(p.dir, "rc"))
		if err == nil {
			if got := strings.TrimSpace(string(rc)); got != wantCode {
				p.t.Fatalf("exit status %s, want %s; the terminal received:\n%s", got, wantCode, p.raw())
			}
			break
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("phasechat did not exit; the terminal received:\n%s", p.raw())
		}
		time.Sleep(10 * time.Millisecond)
	}
	before, _ := os.ReadFile(filepath.Join(p.dir, "stty.before"))
	after, _ := os.ReadFile(filepath.Join(p.dir, "stty.after"))
	if len(before) == 0 || string(before) != string(after) {
		p.t.Fatalf("the terminal was not restored: stty -g before %q, after %q", before, after)
	}
}

// modes returns the pane terminal's local and output flags as stty -a names them ("icanon"
// or "-icanon", ...), read from outside while phasechat runs.
func (p *linePane) modes() map[string]bool {
	p.t.Helper()
	tty := p.tmux("display", "-p", "-t", "a11y", "#{pane_tty}")
	flag := "-F"
	if runtime.GOOS != "linux" {
		flag = "-f"
	}
	out, err := exec.Command("stty", flag, tty, "-a").CombinedOutput()
	if err != nil {
		p.t.Fatalf("stty %s %s -a: %v\n%s", flag, tty, err, out)
	}
	m := map[string]bool{}
	for _, f := range strings.Fields(strings.ReplaceAll(string(out), ";", " ")) {
		m[f] = true
	}
	return m
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
