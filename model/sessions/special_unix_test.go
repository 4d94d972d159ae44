//go:build unix

package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/safefile"
)

// A conversation's lock file, which gets its holder written into it, is refused when it is a
// second name of another file; that file keeps its bytes.
func TestHoldRefusesALockFileLinkedToAnotherFile(t *testing.T) {
	s := openStore(t)
	m := saved(t, s, 1)
	profile := filepath.Join(t.TempDir(), "profile")
	os.WriteFile(profile, []byte("export PATH=/usr/bin\n"), 0o644)
	os.Remove(s.LockPath(m.ID))
	if err := os.Link(profile, s.LockPath(m.ID)); err != nil {
		t.Skip(err)
	}
	if h, err := s.Hold(m.ID); !errors.Is(err, safefile.ErrHardLinked) {
		h.Release()
		t.Fatalf("Hold through a hard link = %v", err)
	}
	if data, _ := os.ReadFile(profile); string(data) != "export PATH=/usr/bin\n" {
		t.Fatalf("the linked file changed: %q", data)
	}
}

// An index or a prompt history that is a FIFO or a link to a device is refused at once, never
// waited on nor read forever.
func TestIndexAndHistoryThatAreNotFilesAreRefused(t *testing.T) {
	s := openStore(t)
	if err := syscall.Mkfifo(filepath.Join(s.Dir(), indexName), 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := s.List(); !errors.Is(err, safefile.ErrNotRegular) {
		t.Fatalf("List with a FIFO for an index = %v", err)
	}
	p := &Prompts{path: filepath.Join(t.TempDir(), "prompts.jsonl")}
	os.Symlink("/dev/zero", p.path)
	if _, err := p.Load(); !errors.Is(err, safefile.ErrNotRegular) {
		t.Fatalf("Load of a history linked to /dev/zero = %v", err)
	}
}
