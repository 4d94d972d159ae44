package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestADraggedFileIsOfferedForAttaching: a pasted absolute path to a file asks; y attaches
// it, another key pastes the path as text; a path naming no file and other text stay text.
func TestADraggedFileIsOfferedForAttaching(t *testing.T) {
	dir := t.TempDir()
	shot := filepath.Join(dir, "shot.png")
	os.WriteFile(shot, []byte("x"), 0o600)
	h := filesHarness(t)
	h.m.files = fakeFiles{have: map[string]bool{shot: true}}

	h.send(tea.PasteMsg{Content: "'" + shot + "' "})
	h.send(takeNext[droppedFile](h))
	if !strings.Contains(h.status(), "Attach "+shot+"? y attaches it") || h.m.composer.Value() != "" {
		t.Fatalf("no question: status %q, composer %q", h.status(), h.m.composer.Value())
	}
	h.send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	h.send(takeNext[filesRead](h))
	if got := h.m.chat.Attached(); len(got) != 1 || got[0].Name != shot || h.m.composer.Value() != "" {
		t.Fatalf("y: attached %+v, composer %q", got, h.m.composer.Value())
	}

	h.send(tea.PasteMsg{Content: shot})
	h.send(takeNext[droppedFile](h))
	h.send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	if got := h.m.composer.Value(); got != shot || len(h.m.chat.Attached()) != 1 {
		t.Errorf("another key: composer %q, attached %d", got, len(h.m.chat.Attached()))
	}

	h.m.composer.Reset()
	gone := filepath.Join(dir, "gone.png")
	h.send(tea.PasteMsg{Content: gone})
	h.send(takeNext[droppedFile](h))
	if got := h.m.composer.Value(); got != gone || h.m.dropped != nil {
		t.Errorf("no such file: composer %q, asking %v", got, h.m.dropped != nil)
	}
	h.m.composer.Reset()
	h.send(tea.PasteMsg{Content: "see " + shot})
	if got := h.m.composer.Value(); got != "see "+shot {
		t.Errorf("text with a path: composer %q", got)
	}
}
