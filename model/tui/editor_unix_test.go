//go:build unix

package tui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/phasechat/phasechat/internal/safefile"
)

// The draft comes back from a file the editor may replace with anything: a link to an endless
// device, a FIFO no one writes, or a huge file is refused at once with words, never read whole.
func TestReadDraftRefusesWhatIsNotADraft(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.md")
	os.Symlink("/dev/zero", zero)
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.md")
	os.WriteFile(huge, []byte(strings.Repeat("x", maxDraftBytes+1)), 0o600)
	for _, path := range []string{zero, fifo, huge} {
		if text, err := readDraft(path); err == nil || text != "" {
			t.Errorf("%s: read %d bytes, err %v; want a refusal", filepath.Base(path), len(text), err)
		}
	}
	if _, err := readDraft(huge); !errors.Is(err, safefile.ErrTooLarge) {
		t.Errorf("over the limit: %v, want ErrTooLarge", err)
	}
	full := filepath.Join(dir, "full.md")
	os.WriteFile(full, []byte(strings.Repeat("y", maxDraftBytes)), 0o600)
	if text, err := readDraft(full); err != nil || len(text) != maxDraftBytes {
		t.Errorf("at the limit: %d bytes, %v", len(text), err)
	}
}

// A refused draft leaves the composer as it was and says why on the status line.
func TestARefusedDraftLeavesTheComposerAlone(t *testing.T) {
	m := newHarness(t, "text", 80, 24).m
	m.composer.SetValue("my words")
	m.editorMsg(editorDoneMsg{readErr: errors.New("/tmp/d.md is not a regular file")})
	if got := m.composer.Value(); got != "my words" {
		t.Errorf("composer %q after a refused draft", got)
	}
	if note, isErr := m.statusNote(); !isErr || !strings.Contains(note, "not put back") || !strings.Contains(note, "not a regular file") {
		t.Errorf("status note %q (error %v)", note, isErr)
	}
}
