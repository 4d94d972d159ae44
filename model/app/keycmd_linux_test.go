package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
)

// A key command stopped (by its timeout, or its context as here) takes its children with it,
// one that left for a session of its own included: none is left waiting for a prompt nobody
// answers.
func TestStoppedKeyCommandEndsItsChildren(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	script := `sleep 60 & a=$!; setsid sleep 60 < /dev/null > /dev/null 2>&1 & echo "$a $!" > ` + pidFile + `.tmp && mv ` + pidFile + `.tmp ` + pidFile + `; exec sleep 60`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		testwait.For(t, func() bool { _, err := os.Stat(pidFile); return err == nil })
		cancel()
	}()
	if _, err := RunKeyCommand(ctx, []string{"sh", "-c", script}, time.Hour); err == nil {
		t.Fatal("a stopped key command gave a key")
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		testwait.Until(t, func() bool { return gone(pid) }, "the key command's child %d still runs", pid)
	}
}

// gone reports whether pid has exited (a zombie not yet reaped counts as exited).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	rest := string(data[strings.LastIndexByte(string(data), ')')+1:])
	return strings.HasPrefix(strings.TrimSpace(rest), "Z")
}
