package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A provider that names no model asks its server for the list at start-up; a server that
// accepts the connection and never answers is given up on after the listing's own bound, and
// the run ends with words saying so instead of waiting forever.
func TestOneShotGivesUpOnAModelListThatNeverComes(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held <- c // kept open, never answered
		}
	}()
	t.Cleanup(func() {
		l.Close()
		for len(held) > 0 {
			(<-held).Close()
		}
	})
	config := filepath.Join(t.TempDir(), "quiet.toml")
	body := "[provider.quiet]\nbase_url = \"http://" + l.Addr().String() + "/v1\"\n"
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	run := runOneShotChild(t, t.TempDir(), "", "-p", "hi", "--config", config, "--no-save")
	if run.code != 1 || !strings.Contains(run.stderr, "did not answer GET /models within 15") || run.stdout != "" {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", run.code, run.stdout, run.stderr)
	}
}
