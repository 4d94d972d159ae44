package main

// The real-terminal tests (tui_*_test.go) run the phasechat binary in a tmux pane against the
// fixture server in this process, type with send-keys and read the screen with capture-pane.
// Each pane lives on a tmux server of its own, killed when the test ends, on a unique socket
// (-S) in the run's directory, which TestMain removes (tmux leaves socket files behind). The
// binary's environment is explicit (env -i): no API key, base URL or user tools file leaks in.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
)

// e2e holds what the real-terminal tests share: a directory for the run, removed by TestMain,
// and the binary, built into it once, by the first test that needs it.
var e2e struct {
	dir  string
	once sync.Once
	bin  string
	err  error
	seq  atomic.Int32 // numbers tmux servers
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "phasechat-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(2)
	}
	e2e.dir = dir
	// Conversations the tests hold in process are kept here, never in the user's own folder.
	os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// phasechatBinary returns the path of the binary built from this package, building it on
// first use (the other tests of package main do not pay for the build).
func phasechatBinary(t *testing.T) string {
	t.Helper()
	e2e.once.Do(func() {
		e2e.bin = filepath.Join(e2e.dir, "phasechat")
		// The go command that runs the tests is on PATH (go test puts its own GOROOT/bin first).
		if out, err := exec.Command("go", "build", "-o", e2e.bin, ".").CombinedOutput(); err != nil {
			e2e.err = fmt.Errorf("building phasechat: %v\n%s", err, out)
		}
	})
	if e2e.err != nil {
		t.Fatal(e2e.err)
	}
	return e2e.bin
}

// fixtureServer is the fixture server at real pace on 127.0.0.1 (port 0). It counts the chat
// requests that started and that ended (the handler returned: finished, or the client left).
type fixtureServer struct {
	URL            string
	started, ended atomic.Int32
}

func startFixtures(t *testing.T) *fixtureServer {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{Pace: 1})
	if err != nil {
		t.Fatal(err)
	}
	fs := &fixtureServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			fs.started.Add(1)
			defer fs.ended.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	fs.URL = srv.URL
	return fs
}

// hermeticEnv is the whole environment the binary (or the shell that starts it) gets: a home
// and config directory of its own, no OpenAI variables, plain output, a UTF-8 locale.
func hermeticEnv(t *testing.T) []string {
	home := t.TempDir()
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "TERM=xterm-256color", "NO_COLOR=1",
		"LANG=C.UTF-8", "PATH=" + os.Getenv("PATH")}
}

// chatArgs is the command line of the binary talking to scenario on fs.
func (fs *fixtureServer) chatArgs(t *testing.T, scenario string, extra ...string) []string {
	return append([]string{phasechatBinary(t), "--base-url", fs.URL + "/v1", "--model", scenario}, extra...)
}

// exitLine is what a chat pane prints once the binary has exited, followed by its status.
const exitLine = "phasechat exited with status "

// newChatPane runs the binary against scenario on fs in a width x height pane, through a shell
// that prints exitLine and the status when it exits (tmux itself may be slow to notice).
func (fs *fixtureServer) newChatPane(t *testing.T, width, height int, scenario string, extra ...string) *pane {
	t.Helper()
	script := shellJoin(fs.chatArgs(t, scenario, extra...)) + `; echo "` + exitLine + `$?"`
	return newPane(t, width, height, hermeticEnv(t), []string{"sh", "-c", script})
}

// tmuxConf keeps a pane readable after its program ends, and lets applications set tmux's paste buffers (OSC 52)
// so a clipboard escape that got through would show up in list-buffers.
const tmuxConf = "set -g remain-on-exit on\nset -g set-clipboard on\nset -g history-limit 5000\n"

// pane is one tmux pane, on its own tmux server.
type pane struct {
	t      *testing.T
	tmux   string
	socket string   // path
	seen   []string // every screen read, in order
}

// requireTmux returns tmux's path, or skips the test when tmux is missing. Call it first, before
// anything that would build the binary.
func requireTmux(t *testing.T) string {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed; the real-terminal tests need it (.ci/run installs it)")
	}
	return tmux
}

// newPane starts argv (run with env -i and env) in a width x height pane.
func newPane(t *testing.T, width, height int, env, argv []string) *pane {
	t.Helper()
	tmux := requireTmux(t)
	conf := filepath.Join(t.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &pane{t: t, tmux: tmux, socket: filepath.Join(e2e.dir, fmt.Sprintf("tmux-%d", e2e.seq.Add(1)))}
	cmdline := shellJoin(append(append([]string{"env", "-i"}, env...), argv...))
	p.run("-f", conf, "new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height),
		"-c", t.TempDir(), cmdline)
	t.Cleanup(func() {
		exec.Command(p.tmux, "-S", p.socket, "kill-server").Run()
		os.Remove(p.socket)
	})
	return p
}

// run runs a tmux command on the pane's server and returns its output.
func (p *pane) run(args ...string) string {
	p.t.Helper()
	cmd := exec.Command(p.tmux, append([]string{"-u", "-S", p.socket}, args...)...)
	cmd.Env = withoutVar(os.Environ(), "TMUX")
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen reads the pane as text and keeps it in seen.
func (p *pane) screen() string {
	s := p.run("capture-pane", "-p", "-t", "e2e")
	p.seen = append(p.seen, s)
	return s
}

// display expands a tmux format for the pane, e.g. "#{pane_title}".
func (p *pane) display(format string) string {
	return strings.TrimSuffix(p.run("display-message", "-p", "-t", "e2e", format), "\n")
}

// keys sends tmux key names (Enter, Escape, C-c, Tab).
func (p *pane) keys(names ...string) { p.run(append([]string{"send-keys", "-t", "e2e"}, names...)...) }

// typeText sends s literally.
func (p *pane) typeText(s string) { p.run("send-keys", "-t", "e2e", "-l", s) }

// waitFor polls the screen until it contains every one of texts, failing after timeout with
// the last screen. It returns that screen.
func (p *pane) waitFor(timeout time.Duration, texts ...string) string {
	p.t.Helper()
	return p.waitUntil(timeout, strings.Join(texts, " and "), func(s string) bool {
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
}

// waitUntil polls the screen until ok holds for it.
func (p *pane) waitUntil(timeout time.Duration, what string, ok func(screen string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := p.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("after %v the screen does not show %s:\n%s", timeout, what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitExit waits for a chat pane's binary to exit and returns its exit status. It reads the
// history too: tmux scrolls the pane when it marks it dead.
func (p *pane) waitExit(timeout time.Duration) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		all := p.run("capture-pane", "-p", "-t", "e2e", "-S", "-")
		if i := strings.LastIndex(all, exitLine); i >= 0 {
			return strings.TrimSpace(strings.SplitN(all[i+len(exitLine):], "\n", 2)[0])
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the program is still running %v later:\n%s", timeout, all)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// neverShowed fails when any screen read so far contained text.
func (p *pane) neverShowed(text string) {
	p.t.Helper()
	for i, s := range p.seen {
		if strings.Contains(s, text) {
			p.t.Fatalf("screen %d of %d shows %q:\n%s", i+1, len(p.seen), text, s)
		}
	}
}

// waitCount polls n until it reaches want.
func waitCount(t *testing.T, what string, n *atomic.Int32, want int32, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for n.Load() != want {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d after %v, want %d", what, n.Load(), timeout, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// shellJoin quotes args for sh.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

func withoutVar(env []string, name string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
