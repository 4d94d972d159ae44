package tui

import (
	"strings"
	"testing"

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
