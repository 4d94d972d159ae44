//go:build unix

package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
)

// The stderr log of a server is never written where it would change another file or wait: a
// hard link to a shell profile, a FIFO and a link to a device at its path are each refused with
// a notice, the server still starts, and the other file keeps its bytes.
func TestServerLogPathThatIsNotItsOwnFileIsRefused(t *testing.T) {
	logs, dir := t.TempDir(), t.TempDir()
	profile := filepath.Join(dir, "profile")
	os.WriteFile(profile, []byte("export PATH=/usr/bin\n"), 0o644)
	if err := os.Link(profile, filepath.Join(logs, "linked.log")); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(filepath.Join(logs, "fifo.log"), 0o600); err != nil {
		t.Skip(err)
	}
	os.Symlink("/dev/null", filepath.Join(logs, "device.log"))
	cfg := Config{}
	for _, name := range []string{"linked", "fifo", "device"} {
		cfg[name] = stdioServer(t, "stdio", dir)
	}
	m := Start(cfg, Options{Registry: newRegistry(t), Lookup: env(), LogDir: logs, Version: "test"})
	t.Cleanup(func() { m.Close() })
	settle(t, m)
	for _, st := range m.Status() {
		if st.State != StateReady {
			t.Errorf("server %s: %s %s", st.Name, st.State, st.Reason)
		}
	}
	var notices []string
	testwait.Until(t, func() bool {
		u, _ := m.Next()
		notices = append(notices, u.Notices...)
		return len(notices) >= 3
	}, "three notices about the logs")
	for _, name := range []string{"linked", "fifo", "device"} {
		if !slices.ContainsFunc(notices, func(n string) bool {
			return strings.HasPrefix(n, "MCP server "+name+": its stderr is not logged: ")
		}) {
			t.Errorf("no notice about the log of %s in %q", name, notices)
		}
	}
	if data, _ := os.ReadFile(profile); string(data) != "export PATH=/usr/bin\n" {
		t.Errorf("the hard-linked profile changed: %q", data)
	}
}
