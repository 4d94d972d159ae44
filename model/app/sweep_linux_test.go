package app

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/reaper"
	"github.com/phasechat/phasechat/internal/testwait"
)

// What a phasechat that died with its supervisor left running (its runs record names it) is
// ended at the next start, which says so before the front end starts.
func TestOpenEndsWhatACrashedRunLeft(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	mark, err := reaper.NewMark()
	if err != nil {
		t.Fatal(err)
	}
	left := exec.Command("sleep", "3600")
	left.Env = append(os.Environ(), mark)
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	defer left.Process.Kill()
	exited := make(chan struct{})
	go func() { left.Wait(); close(exited) }()
	// The record of a process that is gone (no pid is that high): one run, its group unknown,
	// its mark the sleep's.
	const gone = 999999999
	dir := filepath.Join(cache, "phasechat", "runs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	record := fmt.Sprintf("phasechat %d 1\nrun 0 0 %s\n", gone, mark)
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(gone)), []byte(record), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := endpointOf(t, Flags{}, map[string]string{"XDG_CONFIG_HOME": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s.NoSave = true
	var warn bytes.Buffer
	sess, err := Open(s, &warn)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	want := fmt.Sprintf("phasechat: ended 1 process left running by phasechat (pid %d), which did not end normally", gone)
	if !strings.Contains(warn.String(), want) {
		t.Fatalf("Open said %q, want %q", warn.String(), want)
	}
	testwait.Until(t, func() bool {
		select {
		case <-exited:
			return true
		default:
			return false
		}
	}, "the process the record named still runs")
}
