package chat

import (
	"testing"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

func TestSubmitWithFilesSendsThemAndShowsTheirChips(t *testing.T) {
	h := newHarness(t, Config{})
	files := []wire.Attachment{
		{Name: "notes.txt", Kind: wire.AttachText, Lines: 2, Size: 8, Data: []byte("one\ntwo\n")},
		{Name: "red.png", Kind: wire.AttachImage, MediaType: "image/png", Width: 8, Height: 8, Size: 1024, Data: []byte("\x89PNG")},
	}
	h.do(h.c.SubmitWith("", files))
	last := h.c.History[len(h.c.History)-1]
	if last.Role != "user" || len(last.Attachments) != 2 || string(last.Attachments[0].Data) != "one\ntwo\n" {
		t.Fatalf("history's last message: %+v", last)
	}
	var shown string
	for _, e := range h.c.Entries() {
		if e.Role() == transcript.RoleUser {
			shown = e.Text()
		}
	}
	if got, want := shown, "[file notes.txt · 2 lines] [image red.png · 8×8 · 1 KB]"; got != want {
		t.Errorf("the user entry shows %q, want %q", got, want)
	}
}

func TestSubmitWithNeitherTextNorFilesSendsNothing(t *testing.T) {
	h := newHarness(t, Config{})
	if effects := h.c.SubmitWith("  ", nil); effects != nil || len(h.c.History) != 0 {
		t.Errorf("blank submit: %v, history %d", effects, len(h.c.History))
	}
}
