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
)

// unblockAfter opens the write end of the FIFO at path if the test is still waiting on its
// read end after a long while, so a regression fails the test instead of hanging the suite.
func unblockAfter(t *testing.T, path string, done <-chan struct{}) {
	t.Helper()
	go func() {
		select {
		case <-done:
		case <-time.After(20 * time.Second):
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

// The listing of search_files saw a regular file; by the time it is read, it is a FIFO. The
// read must check the opened file, not trust the listing, and must not wait for a writer.
func TestSearchReadRefusesAFIFOSwappedInAfterTheListing(t *testing.T) {
	r := newTestRegistry(t, "")
	fifo := filepath.Join(r.Root(), "swapped.txt")
	mkfifo(t, fifo)
	root, err := os.OpenRoot(r.Root())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	done := make(chan struct{})
	unblockAfter(t, fifo, done)
	data, tooBig, err := readSearched(root, "swapped.txt")
	close(done)
	if err == nil || data != nil || tooBig {
		t.Fatalf("readSearched on a FIFO = %q, %v, %v; want a refusal", data, tooBig, err)
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
	root, err := os.OpenRoot(r.Root())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	done := make(chan struct{})
	unblockAfter(t, fifo, done)
	_, err = nonblockingFS{root}.ReadDir("dir")
	close(done)
	if err == nil {
		t.Fatal("ReadDir on a FIFO succeeded")
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
	root, err := os.OpenRoot(r.Root())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	data, tooBig, err := readSearched(root, "big.txt")
	if err != nil || !tooBig || data != nil {
		t.Fatalf("readSearched on a big file = %d bytes, %v, %v", len(data), tooBig, err)
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
