package tmux

// The one harness of the real-terminal tests. Each pane lives on a tmux server of its own, on a
// unique socket (-S) in the run's directory, killed when the test ends; TestMain removes the
// directory (tmux leaves socket files behind). The program's environment is explicit (env -i):
// no API key, base URL or user tools file leaks in. Every byte the pane's terminal receives is
// piped to a file from the start (the program waits until the pipe is attached), so a test can
// read the screen (capture-pane) or the raw output (pipe-pane), whichever it checks.

import (
	"fmt"
	"github.com/phasechat/phasechat/model/chat"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/heldframes"
	"github.com/phasechat/phasechat/internal/testwait"
)

// run holds what the tests of one run share: a directory, removed by TestMain, the module
// root, and the binary, built into the directory once, by the first test that needs it.
var run struct {
	dir  string
	root string
	once sync.Once
	bin  string
	err  error
	seq  atomic.Int32 // numbers tmux servers
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "phasechat-tmux-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tmux tests:", err)
		os.Exit(2)
	}
	run.dir = dir
	// Conversations the tests hold in process are kept here, never in the user's own folder.
	os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// moduleRoot is the directory of go.mod, found from the test's working directory (the
// package's own).
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's working directory")
		}
		dir = parent
	}
}

// phasechatBinary returns the path of the binary built from the module root, building it on
// first use.
func phasechatBinary(t *testing.T) string {
	t.Helper()
	root := moduleRoot(t)
	run.once.Do(func() {
		run.bin = filepath.Join(run.dir, "phasechat")
		// The go command that runs the tests is on PATH (go test puts its own GOROOT/bin first).
		cmd := exec.Command("go", "build", "-o", run.bin, ".")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			run.err = fmt.Errorf("building phasechat: %v\n%s", err, out)
		}
	})
	if run.err != nil {
		t.Fatal(run.err)
	}
	return run.bin
}

// fixtureServer is the fixture server on 127.0.0.1 (port 0). It counts the chat requests that
// started and that ended (the handler returned: finished, or the client left) and the data
// frames it wrote to the latest ([DONE] excluded), and can hold every [DONE] back until a
// condition holds.
type fixtureServer struct {
	URL            string
	started, ended atomic.Int32
	latest         atomic.Pointer[atomic.Int32] // the data frames of the latest chat request
	doneReady      atomic.Pointer[func() bool]  // nil: [DONE] is not held back
	frameHeld      atomic.Pointer[frameGate]    // nil: no data frame is held back
	gateMissed     atomic.Bool                  // a [DONE] or a held frame went out before its condition held
}

// frameGate holds the data frame numbered at (from 1) of every chat response until ready holds.
type frameGate struct {
	at    int32
	ready func() bool
}

// latestFrames is how many data frames the latest chat request has been sent.
func (fs *fixtureServer) latestFrames() int32 {
	if n := fs.latest.Load(); n != nil {
		return n.Load()
	}
	return 0
}

// holdDone makes every later [DONE] wait until ready holds, for half the test's patience at
// most (then it goes out, and gateMissed says so).
func (fs *fixtureServer) holdDone(ready func() bool) { fs.doneReady.Store(&ready) }

// holdFrame makes the data frame numbered at (from 1) of every later chat response wait until
// ready holds, for half the test's patience at most (then it goes out, and gateMissed says so).
func (fs *fixtureServer) holdFrame(at int32, ready func() bool) {
	fs.frameHeld.Store(&frameGate{at: at, ready: ready})
}

// waitHalfPatience waits until ready holds, for half the test's patience at most, and records
// in gateMissed when it did not.
func (fs *fixtureServer) waitHalfPatience(t *testing.T, ready func() bool) {
	if !heldframes.WaitHalfPatience(t, ready) {
		fs.gateMissed.Store(true)
	}
}

// holdFrames counts the data frames of a chat response in frames and holds them back as the
// server says.
func (fs *fixtureServer) holdFrames(t *testing.T, frames *atomic.Int32) func(heldframes.Frame) {
	return func(f heldframes.Frame) {
		if !f.Done {
			if n, gate := frames.Add(1), fs.frameHeld.Load(); gate != nil && n == gate.at {
				fs.waitHalfPatience(t, gate.ready)
			}
		} else if ready := fs.doneReady.Load(); ready != nil {
			fs.waitHalfPatience(t, *ready)
		}
	}
}

// startFixtures starts the built-in scenarios at real pace.
func startFixtures(t *testing.T) *fixtureServer {
	t.Helper()
	return startFixturesWith(t, fixtures.Options{Pace: 1})
}

func startFixturesWith(t *testing.T, opts fixtures.Options) *fixtureServer {
	t.Helper()
	opts.BeforeFrame = heldframes.BeforeFrame
	h, err := fixtures.NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	fs := &fixtureServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			fs.started.Add(1)
			defer fs.ended.Add(1)
			frames := new(atomic.Int32)
			fs.latest.Store(frames)
			r = heldframes.Answer(r, fs.holdFrames(t, frames))
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

// exitLine is what a program pane prints once the binary has exited, followed by its status.
const exitLine = "phasechat exited with status "

// newChatPane runs the binary against scenario on fs in a width x height pane.
func (fs *fixtureServer) newChatPane(t *testing.T, width, height int, scenario string, extra ...string) *pane {
	t.Helper()
	return newProgramPane(t, width, height, t.TempDir(), hermeticEnv(t), fs.chatArgs(t, scenario, extra...))
}

// newProgramPane runs argv in dir in a width x height pane through a shell that outlives it:
// Ctrl+C reaches the whole foreground process group, and the shell ignores it (a trap is reset
// in the child) so that it can record the exit status (the rc file, and exitLine on screen:
// tmux itself may be slow to notice) and the terminal's settings before and after (stty.before,
// stty.after, as stty -g prints them).
func newProgramPane(t *testing.T, width, height int, dir string, env, argv []string) *pane {
	t.Helper()
	requireTmux(t)
	state := t.TempDir()
	at := func(name string) string { return shellJoin([]string{filepath.Join(state, name)}) }
	script := strings.Join([]string{
		"trap true INT",
		"stty -g > " + at("stty.before"),
		shellJoin(argv),
		"rc=$?",
		"stty -g > " + at("stty.after"),
		"echo $rc > " + at("rc.tmp"),
		"mv " + at("rc.tmp") + " " + at("rc"),
		`echo "` + exitLine + `$rc"`,
	}, "\n")
	return startPane(t, width, height, dir, state, env, []string{"sh", "-c", script})
}

// tmuxConf keeps a pane readable after its program ends, and lets applications set tmux's paste
// buffers (OSC 52) so a clipboard escape that got through would show up in list-buffers.
const tmuxConf = "set -g remain-on-exit on\nset -g set-clipboard on\nset -g history-limit 5000\n"

// pane is one tmux pane, on its own tmux server. Its state directory holds tmux.conf, the raw
// output (out.raw) and, for a program pane, rc and stty.before/stty.after.
type pane struct {
	t      *testing.T
	tmux   string
	socket string   // path
	state  string   // directory
	seen   []string // every screen read, in order
	from   int      // expect looks after this offset of the raw output
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

// newPane starts argv (run with env -i and env) in a fresh working directory in a width x
// height pane.
func newPane(t *testing.T, width, height int, env, argv []string) *pane {
	t.Helper()
	return startPane(t, width, height, t.TempDir(), t.TempDir(), env, argv)
}

// startPane starts argv (run with env -i and env) in dir, once the pane's output is piped to
// state/out.raw.
func startPane(t *testing.T, width, height int, dir, state string, env, argv []string) *pane {
	t.Helper()
	tmux := requireTmux(t)
	conf := filepath.Join(state, "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		t.Fatal(err)
	}
	gate := filepath.Join(state, "go")
	p := &pane{t: t, tmux: tmux, socket: filepath.Join(run.dir, fmt.Sprintf("tmux-%d", run.seq.Add(1))), state: state}
	cmdline := "while [ ! -e " + shellJoin([]string{gate}) + " ]; do sleep 0.01; done; exec " +
		shellJoin(append(append([]string{"env", "-i"}, env...), argv...))
	p.run("-f", conf, "new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height),
		"-c", dir, cmdline)
	pid, _ := strconv.Atoi(strings.TrimSpace(p.run("display-message", "-p", "-t", "e2e", "#{pane_pid}")))
	t.Cleanup(func() {
		// The hang-up ends a chat the way Ctrl+C does, saving what it has: wait for the pane's
		// process and its children (the binary, under a program pane's shell) before the
		// test's directories are removed.
		waitFor := append([]int{pid}, childrenOf(pid)...)
		exec.Command(p.tmux, "-S", p.socket, "kill-server").Run()
		os.Remove(p.socket)
		testwait.Until(t, func() bool {
			for _, id := range waitFor {
				if id > 0 && syscall.Kill(id, 0) == nil {
					return false
				}
			}
			return true
		}, "processes %v are still running after their tmux server was killed", waitFor)
	})
	p.run("pipe-pane", "-t", "e2e", "-o", "cat >> "+shellJoin([]string{filepath.Join(state, "out.raw")}))
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// try runs a tmux command on the pane's server, returning its output and how it ended (for
// commands that fail until a condition holds, such as show-buffer before the first buffer).
func (p *pane) try(args ...string) ([]byte, error) {
	cmd := exec.Command(p.tmux, append([]string{"-u", "-S", p.socket}, args...)...)
	cmd.Env = withoutVar(os.Environ(), "TMUX") // also when the tests themselves run inside tmux
	return cmd.CombinedOutput()
}

// childrenOf lists pid's child processes (Linux's /proc; none where it is missing).
func childrenOf(pid int) []int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return nil
	}
	var ids []int
	for _, f := range strings.Fields(string(data)) {
		if id, err := strconv.Atoi(f); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// run runs a tmux command on the pane's server and returns its output.
func (p *pane) run(args ...string) string {
	p.t.Helper()
	out, err := p.try(args...)
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

// keys sends tmux key names (Enter, Escape, Tab, C-c, C-d, y, ...).
func (p *pane) keys(names ...string) { p.run(append([]string{"send-keys", "-t", "e2e"}, names...)...) }

// typeText sends s literally.
func (p *pane) typeText(s string) { p.run("send-keys", "-t", "e2e", "-l", s) }

// typeLine types text literally and Enter (a carriage return) in one go, as a paste or a
// script does: the program may read the line and its Enter together.
func (p *pane) typeLine(text string) { p.typeText(text + "\r") }

// waitFor polls the screen until it contains every one of texts, failing with the last screen
// when the test's patience runs out. It returns that screen.
func (p *pane) waitFor(texts ...string) string {
	p.t.Helper()
	return p.waitUntil(strings.Join(texts, " and "), func(s string) bool {
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
}

// waitUntil polls the screen until ok holds for it, failing with the last screen when the
// test's patience (testwait.Patience) runs out. It returns that screen.
func (p *pane) waitUntil(what string, ok func(screen string) bool) string {
	p.t.Helper()
	began := time.Now()
	var s string
	if !testwait.For(p.t, func() bool { s = p.screen(); return ok(s) }) {
		p.t.Fatalf("after %v the screen does not show %s:\n%s", time.Since(began).Round(time.Millisecond), what, s)
	}
	return s
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

// raw is everything the pane's terminal has received so far.
func (p *pane) raw() string {
	b, _ := os.ReadFile(filepath.Join(p.state, "out.raw"))
	return string(b)
}

// answer presses key at the line mode's approval question and expects want. A key that comes
// before the question may be answered (the keyboard must be still for the approval wait first)
// is not taken, and the line mode says so once the question is ready: then the key is pressed
// again. Nothing is pressed twice otherwise, so no key is left over for the prompt after.
func (p *pane) answer(key, want string) {
	p.t.Helper()
	for {
		pressed := len(p.raw())
		p.keys(key)
		shown, notTaken := false, false
		if !testwait.For(p.t, func() bool {
			out := p.raw()
			shown = strings.Contains(out[min(p.from, len(out)):], want)
			notTaken = strings.Contains(out[min(pressed, len(out)):], chat.ApprovalNotTaken)
			return shown || notTaken
		}) {
			p.t.Fatalf("pressing %s never answered the approval; the terminal received:\n%s", key, p.raw())
		}
		if shown {
			p.expect(want)
			return
		}
	}
}

// expect waits, for as long as the test's patience lasts, for s to appear in the raw output
// after what was last expected.
func (p *pane) expect(s string) {
	p.t.Helper()
	var out string
	at := -1
	if !testwait.For(p.t, func() bool {
		out = p.raw()
		at = strings.Index(out[min(p.from, len(out)):], s)
		return at >= 0
	}) {
		p.t.Fatalf("%q did not appear; the terminal received:\n%s", s, out)
	}
	p.from = min(p.from, len(out)) + at + len(s)
}

// waitExit waits for a program pane's binary to exit and returns its exit status.
func (p *pane) waitExit() string {
	p.t.Helper()
	var rc []byte
	if !testwait.For(p.t, func() bool {
		var err error
		rc, err = os.ReadFile(filepath.Join(p.state, "rc"))
		return err == nil
	}) {
		p.t.Fatalf("the program is still running:\n%s", p.run("capture-pane", "-p", "-t", "e2e", "-S", "-"))
	}
	return strings.TrimSpace(string(rc))
}

// exit waits for a program pane's binary to end and checks its exit status and that the
// terminal's settings are exactly what they were before it started.
func (p *pane) exit(wantCode string) {
	p.t.Helper()
	if got := p.waitExit(); got != wantCode {
		p.t.Fatalf("exit status %s, want %s; the terminal received:\n%s", got, wantCode, p.raw())
	}
	before, _ := os.ReadFile(filepath.Join(p.state, "stty.before"))
	after, _ := os.ReadFile(filepath.Join(p.state, "stty.after"))
	if len(before) == 0 || string(before) != string(after) {
		p.t.Fatalf("the terminal was not restored: stty -g before %q, after %q", before, after)
	}
}

// modes returns the pane terminal's local and output flags as stty -a names them ("icanon"
// or "-icanon", ...), read from outside while the program runs.
func (p *pane) modes() map[string]bool {
	p.t.Helper()
	tty := p.display("#{pane_tty}")
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

// waitCount polls n until it reaches want.
func waitCount(t *testing.T, what string, n *atomic.Int32, want int32) {
	t.Helper()
	if !testwait.For(t, func() bool { return n.Load() == want }) {
		t.Fatalf("%s: %d, want %d", what, n.Load(), want)
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
