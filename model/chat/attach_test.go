package chat

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/budget"
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

// Ctrl+O on a prompt that carried files shows each file's details: a text file's contents,
// an image's type, size and hash.
func TestPromptFilesExpandToTheirDetails(t *testing.T) {
	h := newHarness(t, Config{})
	files := []wire.Attachment{
		{Name: "notes.txt", Kind: wire.AttachText, Lines: 2, Size: 8, Data: []byte("one\ntwo\n")},
		{Name: "red.png", Kind: wire.AttachImage, MediaType: "image/png", Width: 8, Height: 8, Size: 1024, Hash: "ab12", Data: []byte("\x89PNG")},
	}
	h.do(h.c.SubmitWith("look", files))
	var prompt *transcript.Entry
	for _, e := range h.c.Entries() {
		if e.Role() == transcript.RoleUser {
			prompt = e
		}
	}
	if !h.c.ToggleDetails(0) || !prompt.Expanded() {
		t.Fatal("Ctrl+O did not expand the prompt with files")
	}
	got := prompt.Files()
	if len(got) != 2 || got[0].Chip != "[file notes.txt · 2 lines]" || got[0].Details != "one\ntwo\n" {
		t.Fatalf("the text file: %q", got)
	}
	if want := "image/png · 8×8 pixels · 1 KB\nname: red.png\nsha256: ab12"; got[1].Details != want {
		t.Errorf("the image's details %q, want %q", got[1].Details, want)
	}
}

// A resumed conversation shows its prompts' files as it did when they were sent.
func TestResumedPromptShowsItsFiles(t *testing.T) {
	history := []wire.Message{{Role: "user", Parts: wire.TextParts("look"), Attachments: []wire.Attachment{
		{Name: "notes.txt", Kind: wire.AttachText, Lines: 1, Size: 4, Data: []byte("one\n")},
		{Name: "gone.png", Kind: wire.AttachImage, MediaType: "image/png", Width: 1, Height: 1, Size: 70},
	}}}
	c := New(Config{}, history)
	e := c.Entries()[0]
	if want := "look\n[file notes.txt · 1 line] [image gone.png · 1×1 · 70 B]"; e.Text() != want {
		t.Errorf("resumed prompt %q, want %q", e.Text(), want)
	}
	if files := e.Files(); len(files) != 2 || files[0].Details != "one\n" || files[1].Details != "its contents are no longer in the session store" {
		t.Errorf("resumed files %q", files)
	}
}

// A model known to take no images is not sent one: the transcript says why and how to
// override, the files stay attached; text files go, and a model nothing is known of takes
// images.
func TestImagesAreRefusedForATextOnlyModel(t *testing.T) {
	red := wire.Attachment{Name: "shots/red.png", Kind: wire.AttachImage, MediaType: "image/png", Width: 1, Height: 1, Size: 70, Data: []byte("\x89PNG")}
	notes := wire.Attachment{Name: "notes.txt", Kind: wire.AttachText, Lines: 1, Size: 4, Data: []byte("one\n")}
	h := newHarness(t, Config{Model: "o3-mini", Budget: budget.Model{TextOnly: true}})
	if effects := h.c.SubmitWith("look", []wire.Attachment{notes, red}); effects != nil || len(h.c.History) != 0 {
		t.Fatalf("the image was sent: effects %v, history %d", effects, len(h.c.History))
	}
	said := h.c.Entries()[len(h.c.Entries())-1]
	for _, want := range []string{"o3-mini takes no images", "red.png", `images = true under [model."o3-mini"]`} {
		if said.Role() != transcript.RoleNotice || !strings.Contains(said.Text(), want) {
			t.Errorf("the notice %q lacks %q", said.Text(), want)
		}
	}
	if len(h.c.Attached()) != 2 {
		t.Errorf("attached after the refusal: %d files", len(h.c.Attached()))
	}
	h.c.Detach()
	if effects := h.c.SubmitWith("look", []wire.Attachment{notes}); effects == nil {
		t.Error("a text file was refused")
	}
	unknown := newHarness(t, Config{Model: "local"})
	if why := unknown.c.ImagesRefused([]wire.Attachment{red}); why != "" {
		t.Errorf("an unknown model refuses images: %s", why)
	}
}
