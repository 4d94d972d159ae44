package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/stream/wire"
)

// imageFiles attaches every path as a one-pixel PNG.
type imageFiles struct{ fakeFiles }

func (imageFiles) Read(paths []string) ([]wire.Attachment, []string, error) {
	var files []wire.Attachment
	for _, p := range paths {
		files = append(files, wire.Attachment{Name: p, Kind: wire.AttachImage, MediaType: "image/png", Width: 1, Height: 1, Size: 4, Data: []byte("\x89PNG")})
	}
	return files, nil, nil
}

// TestATextOnlyModelIsNotSentAnImage: the message stays in the composer, the status line
// says why and how to override, and nothing is sent.
func TestATextOnlyModelIsNotSentAnImage(t *testing.T) {
	h := filesHarness(t)
	h.m.files = imageFiles{}
	h.m.chat.SetBudget(budget.Model{TextOnly: true})
	h.submit("/attach red.png")
	h.send(takeNext[filesRead](h))
	h.submit("what is this?")
	if got := h.m.composer.Value(); got != "what is this?" {
		t.Errorf("the composer holds %q", got)
	}
	if st := h.status(); !strings.Contains(st, "takes no images") {
		t.Errorf("the status line says %q", st)
	}
	if len(h.server.requests()) != 0 {
		t.Error("a request was sent")
	}
}

var keyCtrlV = tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}

// TestCtrlVAttachesTheClipboardImage: the clipboard is read in a command and its image is
// attached for the next message; a clipboard without one is said, and nothing is attached.
func TestCtrlVAttachesTheClipboardImage(t *testing.T) {
	h := filesHarness(t)
	h.m.pasteImage = func() ([]byte, error) { return []byte("\x89PNG"), nil }
	h.send(keyCtrlV)
	h.send(takeNext[filesRead](h))
	if got := h.m.chat.Attached(); len(got) != 1 || got[0].Name != pastedName || string(got[0].Data) != "\x89PNG" {
		t.Fatalf("attached %+v", got)
	}
	h.m.chat.Detach()
	h.m.pasteImage = func() ([]byte, error) { return nil, errors.New("the clipboard holds no image") }
	h.send(keyCtrlV)
	h.send(takeNext[filesRead](h))
	if len(h.m.chat.Attached()) != 0 || !strings.Contains(h.status(), "The clipboard holds no image.") {
		t.Errorf("attached %d, status %q", len(h.m.chat.Attached()), h.status())
	}
}
