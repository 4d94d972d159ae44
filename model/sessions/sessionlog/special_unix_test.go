//go:build unix

package sessionlog

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/safefile"
)

// Reading a log that is a FIFO, a socket, a directory or a link to a device returns a refusal at
// once: nothing waits for a writer and nothing reads an endless device.
func TestReadRefusesSpecialFilesAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	sock := filepath.Join(dir, "sock.jsonl")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	zero := filepath.Join(dir, "zero.jsonl")
	os.Symlink("/dev/zero", zero)
	for _, path := range []string{fifo, sock, zero, dir} {
		_, err := Read(path)
		if !errors.Is(err, safefile.ErrNotRegular) || !strings.Contains(err.Error(), path) {
			t.Errorf("Read(%s) = %v, want a refusal naming it", path, err)
		}
	}
}

// A log path that is a second name of another file (a shell profile) is refused, and that file
// keeps its bytes.
func TestOpeningRefusesAHardLinkToAnotherFile(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	os.WriteFile(profile, []byte(userLine+"\n"), 0o644) // even one that looks like a log
	path := filepath.Join(dir, "s.jsonl")
	if err := os.Link(profile, path); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	w, err := createNow(path)
	if err == nil {
		w.Close()
		t.Fatal("a hard-linked file was accepted as a log")
	}
	if !errors.Is(err, ErrNotALog) || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("refusal %q does not say why", err)
	}
	if data, _ := os.ReadFile(profile); string(data) != userLine+"\n" {
		t.Errorf("the linked file changed: %q", data)
	}
}

// A log longer than its limit is refused rather than loaded whole, even when what passes the
// limit is one endless unterminated line (which would otherwise read as cut off).
func TestReadRefusesALogOverTheLimit(t *testing.T) {
	path := writeLog(t, userLine+"\n")
	if err := os.Truncate(path, 1<<20+1); err != nil {
		t.Skip(err)
	}
	if _, err := readUpTo(path, 1<<20); !errors.Is(err, safefile.ErrTooLarge) || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("reading a log over the limit = %v", err)
	}
}
