package sessionlog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// A log Later made is not on disk until its first line is written: what runs before is
// run then, once, on the writer's goroutine.
func TestALaterLogIsOpenedWithItsFirstLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	var (
		mu     sync.Mutex
		before []bool // whether the log was on disk each time before ran
	)
	w := Later(path, func() error {
		_, err := os.Stat(path)
		mu.Lock()
		before = append(before, err == nil)
		mu.Unlock()
		return nil
	})
	w.Then(func() {}) // no line: nothing to open
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the log exists before any line: %v", err)
	}
	w.Add(userRecord("hello"))
	w.Add(userRecord("again"))
	closeLog(t, w)
	mu.Lock()
	defer mu.Unlock()
	if len(before) != 1 || before[0] {
		t.Fatalf("before ran %d times (with the log on disk: %v)", len(before), before)
	}
	if log, err := Read(path); err != nil || roles(log.Messages) != "user,user" {
		t.Fatalf("log %+v, %v", log, err)
	}
	nothing := Later(filepath.Join(t.TempDir(), "never.jsonl"), nil)
	closeLog(t, nothing)
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "never.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a writer given nothing left a log: %v", err)
	}
}

// When what runs before the opening fails, nothing is written, what is added after is
// dropped, and the error is told at once and returned by Sync and Close.
func TestALaterLogWhoseOpeningFailsWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	held := errors.New("another process holds the conversation")
	w := Later(path, func() error { return held })
	told := make(chan error, 1)
	w.OnError(func(err error) { told <- err })
	ran := false
	w.Add(userRecord("hello"))
	w.Then(func() { ran = true })
	if err := w.Sync(); !errors.Is(err, held) {
		t.Fatalf("Sync = %v", err)
	}
	if err := <-told; !errors.Is(err, held) {
		t.Fatalf("told %v", err)
	}
	w.Add(userRecord("dropped"))
	if err := w.Close(); !errors.Is(err, held) {
		t.Fatalf("Close = %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) || ran {
		t.Fatalf("the log exists (%v) or what followed it ran (%v)", err, ran)
	}
}

// What Then queues runs in its place: after the lines added before it are in the log, and
// on disk when one of them is a message, and before the lines added after it.
func TestThenRunsInItsPlaceAmongTheLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	w := create(t, path)
	var seen []string // the log as each function found it (the writer's goroutine, then Close)
	look := func() {
		b, _ := os.ReadFile(path)
		seen = append(seen, string(b))
	}
	w.Add(userRecord("one"))
	w.Then(look)
	w.Add(userRecord("two"))
	w.Add(userRecord("three"))
	w.Then(look)
	closeLog(t, w)
	if len(seen) != 2 || !strings.Contains(seen[0], `"one"`) || strings.Contains(seen[0], `"two"`) ||
		!strings.Contains(seen[1], `"three"`) {
		t.Fatalf("the functions saw %q", seen)
	}
}

// syncCounting is a log file that counts its syncs (it has no Fd: datasync calls Sync).
type syncCounting struct {
	*os.File
	syncs int
}

func (f *syncCounting) Sync() error {
	f.syncs++
	return f.File.Sync()
}

func (f *syncCounting) Fd() {} // hides the file's: datasync then calls Sync

// What Then queues after a message runs once the message is on disk; after a record that
// need not be (usage), the log is not synced for it.
func TestThenRunsOnceAMessageBeforeItIsOnDisk(t *testing.T) {
	w := create(t, filepath.Join(t.TempDir(), "log.jsonl"))
	f := &syncCounting{File: w.f.(*os.File)}
	w.f = f
	var synced []int // the syncs each function found done
	look := func() { synced = append(synced, f.syncs) }
	w.Add(chat.Record{Usage: &wire.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}})
	w.Then(look)
	w.Add(userRecord("one"))
	w.Then(look)
	closeLog(t, w)
	if len(synced) != 2 || synced[0] != 0 || synced[1] != 1 {
		t.Fatalf("the functions found %v syncs done, want [0 1]", synced)
	}
}
