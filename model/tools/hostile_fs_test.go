//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/testwait"
)

// unblockAfter opens the write end of the FIFO at path if the test is still waiting on its
// read end when its patience runs out, so a regression fails the test instead of hanging the
// suite.
func unblockAfter(t *testing.T, path string, done <-chan struct{}) {
	t.Helper()
	go func() {
		select {
		case <-done:
		case <-testwait.After(t):
			t.Errorf("opening the FIFO %s blocked", path)
			if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
		}
	}()
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
}

// rootFD opens the registry's root as a directory descriptor, closed when the test ends.
func rootFD(t *testing.T, r *Registry) int {
	t.Helper()
	fd, err := syscall.Open(r.Root(), syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	return fd
}

// The listing of search_files saw a regular file; by the time it is read, it is a FIFO. The
// read must check the opened file, not trust the listing, and must not wait for a writer.
func TestSearchReadRefusesAFIFOSwappedInAfterTheListing(t *testing.T) {
	r := newTestRegistry(t, "")
	fifo := filepath.Join(r.Root(), "swapped.txt")
	mkfifo(t, fifo)
	dir := rootFD(t, r)
	done := make(chan struct{})
	unblockAfter(t, fifo, done)
	fd, err := openSearchedFile(dir, "swapped.txt")
	if err != nil {
		t.Fatalf("the open must not refuse by name, only by what it opened: %v", err)
	}
	defer syscall.Close(fd)
	data, tooBig, err := readSearchedFD(fd, nil)
	close(done)
	if err == nil || data != nil || tooBig {
		t.Fatalf("readSearchedFD on a FIFO = %q, %v, %v; want a refusal", data, tooBig, err)
	}
	if !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("error %q does not say it is not a regular file", err)
	}
}

// A directory swapped for a FIFO while search_files walks must not hang the walk either.
func TestSearchWalkRefusesAFIFOInPlaceOfADirectory(t *testing.T) {
	r := newTestRegistry(t, "")
	fifo := filepath.Join(r.Root(), "dir")
	mkfifo(t, fifo)
	dir := rootFD(t, r)
	done := make(chan struct{})
	unblockAfter(t, fifo, done)
	fd, err := openSearchedDir(dir, "dir")
	close(done)
	if err == nil {
		syscall.Close(fd)
		t.Fatal("opening a FIFO as a directory succeeded")
	}
}

// A symbolic link swapped in for a listed directory or file is not followed: the walk opens
// names relative to their directory and never follows a link, inside the root or out of it.
func TestSearchWalkNeverFollowsALinkSwappedIn(t *testing.T) {
	r := newTestRegistry(t, "")
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "needle outside\n")
	if err := os.Symlink(outside, filepath.Join(r.Root(), "dir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(r.Root(), "file.txt")); err != nil {
		t.Fatal(err)
	}
	dir := rootFD(t, r)
	if fd, err := openSearchedDir(dir, "dir"); err == nil {
		syscall.Close(fd)
		t.Error("opened a link to a directory outside the root")
	}
	if fd, err := openSearchedFile(dir, "file.txt"); err == nil {
		syscall.Close(fd)
		t.Error("opened a link to a file outside the root")
	}
}

func TestBuiltinsRefuseAFIFOWithoutBlocking(t *testing.T) {
	r := newTestRegistry(t, "")
	fifo := filepath.Join(r.Root(), "pipe")
	mkfifo(t, fifo)
	writeFile(t, filepath.Join(r.Root(), "a.txt"), "needle here\n")
	done := make(chan struct{})
	unblockAfter(t, fifo, done)
	defer close(done)
	wantOutcome(t, run(t, r, "read_file", `{"path": "pipe"}`), OutcomeFailed)
	wantOutcome(t, run(t, r, "list_dir", `{"path": "pipe"}`), OutcomeFailed)
	res := run(t, r, "search_files", `{"pattern": "needle"}`)
	wantOutcome(t, res, OutcomeOK)
	if !strings.Contains(res.Output, "a.txt:1: needle here") {
		t.Errorf("search output %q misses the match", res.Output)
	}
	res = run(t, r, "search_files", `{"pattern": "needle", "path": "pipe"}`)
	if strings.Contains(res.Output, "needle here") {
		t.Errorf("search of the FIFO found %q", res.Output)
	}
}

// A file that grows past the limit between its stat and its read is still read only up to the
// limit and reported as too big.
func TestSearchReadsAtMostTheLimit(t *testing.T) {
	r := newTestRegistry(t, "")
	big := filepath.Join(r.Root(), "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", maxSearchedFile+10)), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := openSearchedFile(rootFD(t, r), "big.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	data, tooBig, err := readSearchedFD(fd, nil)
	if err != nil || !tooBig || data != nil {
		t.Fatalf("readSearchedFD on a big file = %d bytes, %v, %v", len(data), tooBig, err)
	}
}

// A built-in stuck in a system call that ignores its context still ends at the tool's timeout.
func TestBuiltinTimeoutEndsABlockedCall(t *testing.T) {
	r := newTestRegistry(t, "")
	release := make(chan struct{})
	finished := make(chan struct{})
	stuck := builtins()[0]
	stuck.name, stuck.timeout = "stuck", 10*time.Millisecond
	stuck.builtin = func(context.Context, *Registry, map[string]any) (string, error) {
		defer close(finished)
		<-release // deaf to the context, like a blocked open(2)
		return "too late", nil
	}
	if err := r.Add(stuck); err != nil {
		t.Fatal(err)
	}
	res := run(t, r, "stuck", "")
	close(release)
	<-finished
	wantOutcome(t, res, OutcomeTimedOut)
	if !strings.Contains(res.Output, "timed out") {
		t.Errorf("output %q does not say it timed out", res.Output)
	}
}
