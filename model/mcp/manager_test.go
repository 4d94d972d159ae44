package mcp

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/view/safe"
)

func newRegistry(t *testing.T) *tools.Registry { return newRegistryTB(t) }

func newRegistryTB(t testing.TB) *tools.Registry {
	t.Helper()
	reg, err := tools.NewRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	return reg
}

// env is a fake environment holding a provider key, which no server may ever see.
func env(extra ...string) func(string) (string, bool) {
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME"), "OPENAI_API_KEY": "sk-never-shown", "SECRET_TOKEN": "tok-123"}
	for i := 0; i+1 < len(extra); i += 2 {
		vars[extra[i]] = extra[i+1]
	}
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

// start runs the servers of cfg and closes them when the test ends.
func start(t *testing.T, cfg Config) (*Manager, *tools.Registry) {
	t.Helper()
	reg := newRegistry(t)
	m := Start(cfg, Options{Registry: reg, Lookup: env(), LogDir: t.TempDir(), Version: "test"})
	t.Cleanup(func() { m.Close() })
	return m, reg
}

func settle(t *testing.T, m *Manager) {
	t.Helper()
	select {
	case <-m.Settled():
	case <-testwait.After(t):
		t.Fatalf("the servers did not settle: %+v", m.Status())
	}
}

// eventually waits for cond, failing when the test's patience runs out.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, cond, "gave up waiting for %s", what)
}

func run(reg *tools.Registry, ctx context.Context, name, args string) tools.Result {
	return reg.Run(ctx, tools.Call{ID: "c1", Name: name, Arguments: args})
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

// pidsIn lists the pids the test servers recorded in dir.
func pidsIn(t *testing.T, dir string) []int {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var pids []int
	for _, e := range entries {
		if n, ok := strings.CutPrefix(e.Name(), "pid-"); ok {
			pid, _ := strconv.Atoi(n)
			pids = append(pids, pid)
		}
	}
	return pids
}

func assertAllGone(t *testing.T, dir string, want int) {
	t.Helper()
	pids := pidsIn(t, dir)
	if len(pids) < want {
		t.Fatalf("%d processes recorded, want at least %d", len(pids), want)
	}
	// Close reaps the servers it started before it returns; what they started in their
	// process groups got SIGKILL, which takes effect a moment later.
	for _, pid := range pids {
		eventually(t, fmt.Sprintf("process %d to be gone after Close", pid), func() bool { return !alive(pid) })
	}
}

func checkTools(t *testing.T, m *Manager, reg *tools.Registry) {
	t.Helper()
	if st := m.Status(); st[0].State != StateReady {
		t.Fatalf("state %s (%s), want ready", st[0].State, st[0].Reason)
	}
	names := reg.Names()
	for _, want := range []string{"t__echo", "t__write_note", "t__sleep", "t__fail", "t__picture"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %s not offered; have %v", want, names)
		}
	}
	if res := run(reg, context.Background(), "t__echo", `{"text":"hello \u001b[31mred"}`); res.IsError || res.Output != "hello ␛[31mred" {
		t.Errorf("echo: %+v (the output must come back sanitised)", res)
	}
	if res := run(reg, context.Background(), "t__echo", `{}`); res.Outcome != tools.OutcomeRejected || !strings.Contains(res.Output, `missing property "text"`) {
		t.Errorf("echo without text: %+v, want it rejected before running", res)
	}
	if res := run(reg, context.Background(), "t__fail", ``); !res.IsError || res.Output != "the disk is on fire" {
		t.Errorf("fail: %+v, want an error result carrying the server's text", res)
	}
	if res := run(reg, context.Background(), "t__picture", ``); res.Output != "here it is\n[image 640x480 png]\n[resource file:///tmp/notes.txt]" {
		t.Errorf("picture: %q", res.Output)
	}
	if reg.SideEffects("t__echo") || !reg.SideEffects("t__write_note") {
		t.Errorf("echo (readOnlyHint) must run without asking, write_note (no hint) must ask")
	}
}

func TestStdioServerToolsRunThroughTheRegistry(t *testing.T) {
	dir := t.TempDir()
	m, reg := start(t, Config{"t": stdioServer(t, "stdio", dir)})
	settle(t, m)
	checkTools(t, m, reg)

	res := run(reg, context.Background(), "t__env", ``)
	for _, bad := range []string{"OPENAI_API_KEY", "sk-never-shown", "SECRET_TOKEN"} {
		if strings.Contains(res.Output, bad) {
			t.Errorf("the server's environment holds %s: %s", bad, res.Output)
		}
	}
	if !strings.Contains(res.Output, "PATH=") || !strings.Contains(res.Output, "PHASECHAT_MCPTEST=stdio") {
		t.Errorf("the server's environment lacks PATH or its configured env: %s", res.Output)
	}
	m.Close()
	assertAllGone(t, dir, 1)
	if names := reg.Names(); slices.Contains(names, "t__echo") {
		t.Errorf("tools of a closed server still offered: %v", names)
	}
}

func TestHTTPServerToolsRunThroughTheRegistry(t *testing.T) {
	var got http.Header
	url := httpServer(t, "", func(_ http.ResponseWriter, r *http.Request) bool {
		got = r.Header.Clone()
		return false
	})
	m, reg := start(t, Config{"t": {URL: url, Headers: map[string]string{"X-Token": "v=${SECRET_TOKEN}"}, BearerTokenEnv: "SECRET_TOKEN"}})
	settle(t, m)
	checkTools(t, m, reg)
	if got.Get("X-Token") != "v=tok-123" || got.Get("Authorization") != "Bearer tok-123" {
		t.Errorf("headers sent: X-Token %q, Authorization %q", got.Get("X-Token"), got.Get("Authorization"))
	}
}

func TestHTTPServerDemandingOAuthFailsClearly(t *testing.T) {
	url := httpServer(t, "", func(w http.ResponseWriter, r *http.Request) bool {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
		return true
	})
	m, _ := start(t, Config{"gh": {URL: url}})
	settle(t, m)
	st := m.Status()[0]
	if st.State != StateFailed || !strings.Contains(st.Reason, "does not do OAuth") {
		t.Fatalf("state %s, reason %q; want failed, saying OAuth is not done", st.State, st.Reason)
	}
}

func TestSilentServerFailsWithinItsStartupTimeout(t *testing.T) {
	dir := t.TempDir()
	cfg := silentServer(dir)
	cfg.StartupTimeout = Duration(2 * time.Second)
	m, reg := start(t, Config{"quiet": cfg, "t": stdioServer(t, "stdio", dir)})
	if got := reg.Pending(); len(got) == 0 {
		t.Errorf("no server pending right after Start")
	}
	settle(t, m)
	st := m.Status()
	if st[0].Name != "quiet" || st[0].State != StateFailed {
		t.Fatalf("status %+v", st)
	}
	if !strings.Contains(st[0].Reason, "no answer to initialize within 2s") || !strings.Contains(st[0].Reason, "silent server: listening") {
		t.Errorf("reason %q: want the timeout and the last stderr line", st[0].Reason)
	}
	if st[1].State != StateReady {
		t.Errorf("the other server: %s %s", st[1].State, st[1].Reason)
	}
	u, _ := m.Next()
	if u.Footer != "MCP 1/2" || !slices.ContainsFunc(u.Notices, func(n string) bool { return strings.HasPrefix(n, "MCP server quiet failed to start: no answer") }) {
		t.Errorf("update %+v", u)
	}
	m.Close()
	assertAllGone(t, dir, 2)
}

func TestServerThatExitsAtOnceIsReportedWithItsStderr(t *testing.T) {
	m, _ := start(t, Config{"bad": stdioServer(t, "early-exit", "")})
	settle(t, m)
	st := m.Status()[0]
	if st.State != StateFailed || !strings.Contains(st.Reason, "fatal: no API token configured") {
		t.Errorf("state %s, reason %q", st.State, st.Reason)
	}
	m2, _ := start(t, Config{"missing": {Command: "/nonexistent/phasechat-mcp-server"}})
	settle(t, m2)
	if st := m2.Status()[0]; st.State != StateFailed || !strings.Contains(st.Reason, "could not start /nonexistent/phasechat-mcp-server") {
		t.Errorf("state %s, reason %q", st.State, st.Reason)
	}
}

func TestHangingCallStopsAtItsTimeoutAndTellsTheServer(t *testing.T) {
	dir := t.TempDir()
	cfg := stdioServer(t, "stdio", dir)
	cfg.CallTimeout = Duration(2 * time.Second)
	m, reg := start(t, Config{"t": cfg})
	settle(t, m)
	// On a loaded machine the timeout may end a call before it reaches the server, which then
	// has nothing to cancel: only a call the server started (it wrote "sleeping") shows the
	// server is told, so a call that never reached it is made again.
	sleeping := filepath.Join(dir, "sleeping")
	var res tools.Result
	testwait.Until(t, func() bool {
		os.Remove(sleeping)
		res = run(reg, context.Background(), "t__sleep", ``)
		_, err := os.Stat(sleeping)
		return err == nil
	}, "no t__sleep call reached the server before its timeout; the last ended %+v", &res)
	if res.Outcome != tools.OutcomeTimedOut || res.Output != "t__sleep timed out after 2s and was stopped" {
		t.Errorf("%+v", res)
	}
	eventually(t, "the server to see the cancellation", func() bool {
		_, err := os.Stat(filepath.Join(dir, "cancelled"))
		return err == nil
	})
	if res := run(reg, context.Background(), "t__echo", `{"text":"still here"}`); res.Output != "still here" {
		t.Errorf("after a timeout the server must still answer: %+v", res)
	}
}

func TestEscStopsAHangingCallAndTellsTheServer(t *testing.T) {
	dir := t.TempDir()
	m, reg := start(t, Config{"t": stdioServer(t, "stdio", dir)})
	settle(t, m)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tools.Result)
	go func() { done <- run(reg, ctx, "t__sleep", ``) }()
	eventually(t, "the call to reach the server", func() bool {
		_, err := os.Stat(filepath.Join(dir, "sleeping"))
		return err == nil
	})
	cancel()
	res := <-done
	if res.Outcome != tools.OutcomeStopped || res.Output != "t__sleep was stopped by the user" {
		t.Errorf("%+v", res)
	}
	eventually(t, "the server to see the cancellation", func() bool {
		_, err := os.Stat(filepath.Join(dir, "cancelled"))
		return err == nil
	})
}

func TestServerThatDiesIsRestartedOnceThenFailed(t *testing.T) {
	dir := t.TempDir()
	m, reg := start(t, Config{"t": stdioServer(t, "stdio", dir)})
	settle(t, m)
	if res := run(reg, context.Background(), "t__crash", ``); !res.IsError {
		t.Errorf("a call whose server died must fail: %+v", res)
	}
	eventually(t, "the restart", func() bool { return len(pidsIn(t, dir)) == 2 && m.Status()[0].State == StateReady })
	if res := run(reg, context.Background(), "t__echo", `{"text":"back"}`); res.Output != "back" {
		t.Errorf("after the restart: %+v", res)
	}
	run(reg, context.Background(), "t__crash", ``)
	eventually(t, "the server to be marked failed", func() bool { return m.Status()[0].State == StateFailed })
	if slices.Contains(reg.Names(), "t__echo") {
		t.Errorf("a failed server's tools are still offered")
	}
	var notices []string
	for {
		u, _ := m.Next()
		notices = append(notices, u.Notices...)
		if len(notices) >= 2 || len(u.Notices) == 0 {
			break
		}
	}
	joined := strings.Join(notices, "\n")
	if !strings.Contains(joined, "restarting it once") || !strings.Contains(joined, "stopped again") {
		t.Errorf("notices: %q", joined)
	}
	assertAllGone(t, dir, 2)
}

func TestCloseLeavesNoProcessBehind(t *testing.T) {
	dir := t.TempDir()
	m, _ := start(t, Config{"a": stdioServer(t, "spawn", dir), "b": stdioServer(t, "stdio", dir)})
	settle(t, m)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	assertAllGone(t, dir, 3) // two servers and the grandchild one of them started
	if st := m.Status(); st[0].State != StateStopped {
		t.Errorf("state after Close: %s", st[0].State)
	}
	if _, ok := m.Next(); ok {
		t.Errorf("Next after Close must report the end")
	}
}

func TestAllowListAndApprovalPolicy(t *testing.T) {
	always := stdioServer(t, "stdio", "")
	always.Tools, always.Approve = []string{"echo"}, ApproveAlways
	never := stdioServer(t, "stdio", "")
	never.Approve = ApproveNever
	m, reg := start(t, Config{"a": always, "n": never})
	settle(t, m)
	var mine []string
	for _, n := range reg.Names() {
		if strings.HasPrefix(n, "a__") {
			mine = append(mine, n)
		}
	}
	if !slices.Equal(mine, []string{"a__echo"}) {
		t.Errorf("allow-list: offered %v", mine)
	}
	if !reg.SideEffects("a__echo") {
		t.Errorf(`approve = "always" must ask even for a read-only tool`)
	}
	if reg.SideEffects("n__write_note") {
		t.Errorf(`approve = "never" must not ask`)
	}
}

func TestChangedAnnotationsChangeTheApprovalKey(t *testing.T) {
	srvDir := ""
	srv := testServer(srvDir)
	url := httpServerFor(t, srv)
	m, reg := start(t, Config{"t": {URL: url}})
	settle(t, m)
	before := reg.ApprovalKey("t__write_note")
	srv.AddTool(&sdkTool{Name: "write_note", Description: "Now claims to be read-only", InputSchema: schema(`"text":{"type":"string"}`, "text"),
		Annotations: &sdkAnnotations{ReadOnlyHint: true}}, echoHandler)
	eventually(t, "the new annotations", func() bool { return reg.ApprovalKey("t__write_note") != before })
	if reg.SideEffects("t__write_note") {
		t.Errorf("the tool now declares readOnlyHint")
	}
}

// TestServerCredentialsAreSecretsOfTheRun: an HTTP server's bearer token and credential
// headers are secrets from the start: a result echoing them is redacted, and no command tool
// gets the variables holding them, while the server itself still receives its own.
func TestServerCredentialsAreSecretsOfTheRun(t *testing.T) {
	var got http.Header
	url := httpServer(t, "", func(_ http.ResponseWriter, r *http.Request) bool {
		got = r.Header.Clone()
		return false
	})
	m, reg := start(t, Config{"t": {URL: url, Headers: map[string]string{"X-Token": "v=${SECRET_TOKEN}"}, BearerTokenEnv: "SECRET_TOKEN"}})
	if !reg.Secrets.Contains("tok-123") || !slices.Contains(reg.HiddenEnv, "SECRET_TOKEN") {
		t.Fatalf("the bearer token is not a secret of the run before the server starts (hidden %v)", reg.HiddenEnv)
	}
	settle(t, m)
	if got.Get("Authorization") != "Bearer tok-123" {
		t.Fatalf("the server did not get its own token: %q", got.Get("Authorization"))
	}
	res := run(reg, context.Background(), "t__echo", `{"text":"the token is tok-123, header v=tok-123"}`)
	if strings.Contains(res.Output, "tok-123") {
		t.Errorf("the result carries the token: %q", res.Output)
	}
}

// An HTTP server with nothing listening fails to start with the connection refused and its
// URL, as a request to a provider says it, not as an answer from the server.
func TestHTTPServerNotListeningSaysTheConnectionWasRefused(t *testing.T) {
	m, _ := start(t, Config{"web": {URL: closedURL(t)}})
	settle(t, m)
	st := m.Status()[0]
	if st.State != StateFailed || !strings.Contains(st.Reason, "connection refused") || !strings.Contains(st.Reason, "/mcp") ||
		strings.Contains(st.Reason, "answered") {
		t.Fatalf("state %s, reason %q; want failed, saying the connection to its URL was refused", st.State, st.Reason)
	}
}

// A tools = [...] naming tools the server does not have is a warning naming them; the tools
// it has are offered.
func TestAllowListNamingMissingToolsIsAWarning(t *testing.T) {
	cfg := stdioServer(t, "stdio", "")
	cfg.Tools = []string{"echo", "nope", "gone"}
	m, reg := start(t, Config{"a": cfg})
	settle(t, m)
	if !slices.Contains(reg.Names(), "a__echo") {
		t.Fatalf("the tool it has is not offered: %v", reg.Names())
	}
	st := m.Status()[0]
	if !slices.Equal(st.Missing, []string{"nope", "gone"}) {
		t.Fatalf("missing %v, want [nope gone]", st.Missing)
	}
	u, _ := m.Next()
	if !slices.ContainsFunc(u.Notices, func(n string) bool { return strings.Contains(n, "nope, gone") && strings.Contains(n, "MCP server a") }) {
		t.Fatalf("no notice names the missing tools: %q", u.Notices)
	}
}

// A disabled server is reported as disabled, never started.
func TestDisabledServerIsListedAsDisabled(t *testing.T) {
	off := false
	dir := t.TempDir()
	cfg := stdioServer(t, "stdio", dir)
	cfg.Enabled = &off
	m, _ := start(t, Config{"off": cfg, "on": stdioServer(t, "stdio", dir)})
	settle(t, m)
	st := m.Status()
	if len(st) != 2 || st[0].Name != "off" || st[0].State != StateDisabled || st[1].State != StateReady {
		t.Fatalf("status %+v; want off disabled, on ready", st)
	}
	var b strings.Builder
	WriteList(&b, st)
	if !strings.Contains(b.String(), "off (stdio): disabled") {
		t.Fatalf("the list does not show the disabled server:\n%s", b.String())
	}
}

// closedURL is an MCP URL on a loopback port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/mcp"
}
