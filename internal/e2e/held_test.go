//go:build unix

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/sessions"
)

// A conversation open in one process (here the test's, through the store) is not written by a
// second: `--resume ID -p` exits 1 saying which pid holds it, and with --fork continues it in
// a new session that records its parent, leaving the parent's log as it was.
func TestASecondProcessOnAConversationIsRefusedOrForks(t *testing.T) {
	bin := buildPhasechat(t)
	srv := newServer(t, fixtures.Options{}, nil)
	dir := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_CACHE_HOME="+dir,
		"OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	phasechat := func(args ...string) (code int, stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--base-url", srv.URL, "--model", "text")...)
		cmd.Dir, cmd.Env = dir, env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}
	if code, _, stderr := phasechat("-p", "first question"); code != 0 {
		t.Fatalf("the first conversation: exit %d: %s", code, stderr)
	}
	store, err := sessions.Open(filepath.Join(dir, "phasechat", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	parent, err := store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(store.LogPath(parent.ID))
	if err != nil {
		t.Fatal(err)
	}
	hold, err := store.Hold(parent.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Release()

	code, _, stderr := phasechat("--resume", parent.ID, "-p", "second question")
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(stderr, "--fork") {
		t.Fatalf("a held conversation resumed: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := phasechat("--continue", "--fork", "-p", "second question"); code != 0 {
		t.Fatalf("--fork: exit %d: %s", code, stderr)
	}
	all, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID == parent.ID || all[0].Parent != parent.ID || all[0].Turns != 2 {
		t.Fatalf("after the fork the index holds %+v", all)
	}
	if after, _ := os.ReadFile(store.LogPath(parent.ID)); !bytes.Equal(before, after) {
		t.Fatalf("the parent's log changed:\n%s", after)
	}
}
