//go:build unix

package e2e

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/sessions"
)

// The files phasechat keeps, swapped for what must not be read or written (a FIFO, a socket, a
// link to a device, a directory, a second name of another file), are refused at once through
// the real binary: every command ends, says why, and the other file keeps its bytes. A change
// to the index waits for another process's lock within its bound and says so.
func TestHostileFilesAreRefusedAtOnce(t *testing.T) {
	bin := buildPhasechat(t)
	srv := newServer(t, fixtures.Options{}, nil)
	dir := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir,
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	phasechat := func(args ...string) (code int, stdout, stderr string) {
		t.Helper()
		ctx, cancel := context.WithDeadline(context.Background(), testwait.Deadline(t))
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir, cmd.Env = dir, env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("phasechat %q never ended; stderr so far %q", args, errOut.String())
		}
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}
	chat := []string{"--base-url", srv.URL, "--model", "text"}
	if code, _, stderr := phasechat(append(chat, "-p", "first question")...); code != 0 {
		t.Fatalf("the first conversation: exit %d: %s", code, stderr)
	}
	store, err := sessions.Open(filepath.Join(dir, "phasechat", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	logPath := store.LogPath(m.ID)
	profile := filepath.Join(dir, "profile")
	writeFile(t, profile, "export PATH=/usr/bin\n")

	swaps := map[string]func(path string){
		"a FIFO":              func(p string) { syscall.Mkfifo(p, 0o600) },
		"a link to /dev/zero": func(p string) { os.Symlink("/dev/zero", p) },
		"a directory":         func(p string) { os.Mkdir(p, 0o700) },
		"a socket": func(p string) {
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Skip(err)
			}
			t.Cleanup(func() { l.Close() })
		},
	}
	for kind, swap := range swaps {
		os.RemoveAll(logPath)
		swap(logPath)
		for _, args := range [][]string{{"sessions", "show", m.ID}, append(append([]string{}, chat...), "--continue", "-p", "again")} {
			code, _, stderr := phasechat(args...)
			if code == 0 || !strings.Contains(stderr, logPath) || !strings.Contains(stderr, "not a regular file") {
				t.Errorf("%s as the log, %q: exit %d, stderr %q", kind, args[:2], code, stderr)
			}
		}
		if code, _, stderr := phasechat("sessions", "search", "question"); code != 1 || !strings.Contains(stderr, "no session mentions") ||
			!strings.Contains(stderr, "session "+m.ID+" not searched: cannot open the session log: "+logPath) {
			t.Errorf("%s as the only log, sessions search: exit %d, stderr %q", kind, code, stderr)
		}
	}

	mcpLogs := filepath.Join(dir, "phasechat", "mcp")
	os.MkdirAll(mcpLogs, 0o700)
	syscall.Mkfifo(filepath.Join(mcpLogs, "piped.log"), 0o600)
	if err := os.Link(profile, filepath.Join(mcpLogs, "linked.log")); err != nil {
		t.Fatal(err)
	}
	mcpFile := filepath.Join(dir, "mcp.toml")
	writeFile(t, mcpFile, "[mcp.piped]\ncommand = \"sh\"\nargs = [\"-c\", \"echo starting >&2; exit 3\"]\n\n"+
		"[mcp.linked]\ncommand = \"sh\"\nargs = [\"-c\", \"echo starting >&2; exit 3\"]\n")
	if code, stdout, stderr := phasechat("mcp", "list", "--mcp", mcpFile); code != 1 || !strings.Contains(stdout, "piped (stdio): failed") {
		t.Errorf("mcp list with a FIFO and a hard link for logs: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(profile); string(data) != "export PATH=/usr/bin\n" {
		t.Errorf("the file hard-linked as an MCP log changed: %q", data)
	}

	linkedLog := filepath.Join(dir, "linked.jsonl")
	if err := os.Link(profile, linkedLog); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := phasechat(append(chat, "--no-save", "--log", linkedLog, "-p", "q")...); !strings.Contains(stderr, "other hard links") {
		t.Errorf("--log at a second name of another file: exit %d, stderr %q", code, stderr)
	}
	if data, _ := os.ReadFile(profile); string(data) != "export PATH=/usr/bin\n" {
		t.Errorf("the file hard-linked as --log changed: %q", data)
	}

	fifoConfig := filepath.Join(dir, "config.fifo")
	syscall.Mkfifo(fifoConfig, 0o600)
	if code, _, stderr := phasechat(append(chat, "--config", fifoConfig, "-p", "q")...); code == 0 || !strings.Contains(stderr, "named pipe (FIFO)") {
		t.Errorf("a FIFO as --config: exit %d, stderr %q", code, stderr)
	}

	os.RemoveAll(logPath)
	lockFile, err := os.OpenFile(filepath.Join(store.Dir(), "index.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lockFile.Close()
	if err := syscall.Flock(int(lockFile.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := phasechat(append(chat, "-p", "while the index is locked")...)
	if !strings.Contains(stderr, "phasechat: waiting for the sessions index: another process holds its lock") ||
		!strings.Contains(stderr, "another process held its lock for 10s; gave up") {
		t.Errorf("a one-shot run under a held index lock: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
