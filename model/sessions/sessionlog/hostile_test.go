package sessionlog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// A link planted at the log path must not send the conversation into its target.
func TestOpeningRefusesASymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	if err := os.WriteFile(profile, []byte("export PATH=/usr/bin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"to-profile": profile, "dangling": filepath.Join(dir, "new-file"),
		"to-log": writeLog(t, userLine+"\n")} {
		link := filepath.Join(dir, name)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(target)
		w, err := createNow(link)
		if err == nil {
			w.Close()
			t.Errorf("%s: the opening followed the link", name)
			continue
		}
		if !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s: error %q does not name the link", name, err)
		}
		if !errors.Is(err, ErrNotALog) || strings.Contains(err.Error(), ErrNotALog.Error()) {
			t.Errorf("%s: error %q: want ErrNotALog as its cause, not as a tail of its words", name, err)
		}
		after, _ := os.Stat(target)
		if before != nil && (after.Mode() != before.Mode() || after.Size() != before.Size()) {
			t.Errorf("%s: the target changed: %v %d -> %v %d", name, before.Mode(), before.Size(), after.Mode(), after.Size())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new-file")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a dangling link's target was created: %v", err)
	}
}

// A file that is not a session log keeps its bytes and its mode.
func TestOpeningRefusesAFileThatIsNotALog(t *testing.T) {
	for name, text := range map[string]string{
		"notes":                 "buy milk\nand bread",
		"json of another kind":  `{"name":"x"}` + "\n",
		"unterminated prose":    "dear diary",
		"a shell profile":       "alias ll='ls -l'\n",
		"an array":              `[{"type":"message"}]` + "\n",
		"a log line later only": "# header\n" + userLine + "\n",
	} {
		path := filepath.Join(t.TempDir(), "notes.txt")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, 0o644)
		w, err := createNow(path)
		if err == nil {
			w.Close()
			t.Errorf("%s: accepted as a log", name)
		} else if !errors.Is(err, ErrNotALog) || !strings.Contains(err.Error(), "not a phasechat session log") || strings.Contains(err.Error(), ErrNotALog.Error()) {
			t.Errorf("%s: error %v", name, err)
		}
		data, _ := os.ReadFile(path)
		fi, _ := os.Stat(path)
		if string(data) != text || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: the file changed: %q, mode %o", name, data, fi.Mode().Perm())
		}
	}
	for name, text := range map[string]string{"empty": "", "a log": userLine + "\n", "a log cut in its first line": userLine[:12]} {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := createNow(path)
		if err != nil {
			t.Errorf("%s: refused: %v", name, err)
			continue
		}
		closeLog(t, w)
	}
}

func TestOpeningRefusesAFIFOWithoutBlocking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if w, err := createNow(path); err == nil {
		w.Close()
		t.Fatal("a FIFO was accepted as a log")
	}
}

// failingFile is a log file whose writes fail while full is set, leaving part of the line
// written, as a full disk does.
type failingFile struct {
	*os.File
	mu   sync.Mutex
	full bool
}

func (f *failingFile) Write(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.full {
		n, _ := f.File.Write(b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	return f.File.Write(b)
}

func (f *failingFile) setFull(full bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.full = full
}

// waitReport returns the next report of OnError.
func waitReport(t *testing.T, reports <-chan error) error {
	t.Helper()
	return <-reports
}

func TestAFailedWriteIsReportedAtOnceAndRetried(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w := create(t, path)
	real := w.f.(*os.File)
	ff := &failingFile{File: real}
	w.f = ff
	reports := make(chan error, 16)
	w.OnError(func(err error) { reports <- err })

	ff.setFull(true)
	w.Add(userRecord("one"))
	err := waitReport(t, reports)
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "(1 record held") {
		t.Fatalf("report %v", err)
	}
	w.Add(userRecord("two"))
	if err := waitReport(t, reports); err == nil || !strings.Contains(err.Error(), "(2 records held") {
		t.Fatalf("second report %v", err)
	}
	ff.setFull(false)
	w.Add(userRecord("three"))
	if err := waitReport(t, reports); err != nil {
		t.Fatalf("the recovery was reported as %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close after the recovery: %v", err)
	}
	log, err := Read(path)
	if err != nil || log.CutOff {
		data, _ := os.ReadFile(path)
		t.Fatalf("Read: %v (cut off %v)\n%s", err, log.CutOff, data)
	}
	var got []string
	for _, m := range log.Messages {
		got = append(got, m.Text())
	}
	if strings.Join(got, ",") != "one,two,three" {
		t.Fatalf("messages %v, want one,two,three in order", got)
	}
}

// The same on a real full file system: a small tmpfs, where this test may mount one.
func TestAFullDiskLosesNoRecord(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("mounts a tmpfs: Linux only")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v); TestAFailedWriteIsReportedAtOnceAndRetried covers this with an injected writer", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	filler := filepath.Join(dir, "filler")
	path := filepath.Join(dir, "s.jsonl")
	w := create(t, path)
	reports := make(chan error, 64)
	w.OnError(func(err error) { reports <- err })
	w.Add(userRecord("first"))
	big := strings.Repeat("x", 4000)
	if err := os.WriteFile(filler, make([]byte, 60<<10), 0o600); err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	for i := 0; i < 8; i++ {
		w.Add(userRecord(big))
	}
	if err := waitReport(t, reports); err == nil || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("report %v", err)
	}
	os.Remove(filler)
	w.Add(userRecord("last"))
	for err := range reports {
		if err == nil {
			break
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(log.Messages); n != 10 || log.Messages[0].Text() != "first" || log.Messages[9].Text() != "last" {
		t.Fatalf("%d messages survived, want 10", n)
	}
}

func TestTheLogHidesSecrets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w := create(t, path)
	w.SetSecrets(secret.New("sk-live-log-0123456789"))
	w.Add(userRecord("my key is sk-live-log-0123456789, keep it"))
	closeLog(t, w)
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "sk-live-log") || !strings.Contains(string(data), "[redacted]") {
		t.Fatalf("log: %s", data)
	}
}

// syncFailingFile is a log file whose first failSyncs syncs fail, as a disk's error does; it
// has no Fd, so that the writer syncs through Sync.
type syncFailingFile struct {
	logFile
	mu        sync.Mutex
	failSyncs int
	synced    int // syncs that succeeded
}

func (f *syncFailingFile) Sync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failSyncs > 0 {
		f.failSyncs--
		return syscall.EIO
	}
	f.synced++
	return f.logFile.Sync()
}

func (f *syncFailingFile) syncs() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.synced
}

// A message whose sync failed is synced before a Then after it runs, though the pass that
// runs it writes no message: what Then tells of is on disk. The failure says the message is
// not yet safe on disk.
func TestAThenWaitsForAFailedSyncToBeDoneAgain(t *testing.T) {
	w := create(t, filepath.Join(t.TempDir(), "s.jsonl"))
	sf := &syncFailingFile{logFile: w.f, failSyncs: 1}
	w.f = sf
	reports := make(chan error, 16)
	w.OnError(func(err error) { reports <- err })
	syncsBeforeThen := make(chan int, 1)
	w.Add(userRecord("one"))
	w.Then(func() { syncsBeforeThen <- sf.syncs() })
	err := waitReport(t, reports)
	if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "written and not yet safe on disk, tried again") {
		t.Fatalf("the failed sync was reported as %v", err)
	}
	w.Add(chat.Record{Usage: &wire.Usage{PromptTokens: 1}}) // a next pass, with no message in it
	if n := <-syncsBeforeThen; n == 0 {
		t.Fatal("Then ran with the message not synced")
	}
	if err := waitReport(t, reports); err != nil {
		t.Fatalf("the recovery was reported as %v", err)
	}
	closeLog(t, w)
}
