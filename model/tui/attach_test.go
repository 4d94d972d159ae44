package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// fakeFiles attaches a file named as asked, holding its name, for the names in have.
type fakeFiles struct{ have map[string]bool }

func (f fakeFiles) Read(paths []string) ([]wire.Attachment, []string, error) {
	var files []wire.Attachment
	var notes []string
	for _, p := range paths {
		if !f.have[p] {
			return nil, nil, errors.New("cannot attach " + p + ": there is no such file")
		}
		a := wire.Attachment{Name: p, Kind: wire.AttachText, MediaType: "text/plain", Lines: 1, Size: len(p), Data: []byte(p)}
		files, notes = append(files, a), append(notes, "attached "+a.Chip())
	}
	return files, notes, nil
}

func (f fakeFiles) Mentioned(text string) ([]wire.Attachment, []string, error) {
	var paths []string
	for _, w := range strings.Fields(text) {
		if strings.HasPrefix(w, "@") && f.have[w[1:]] {
			paths = append(paths, w[1:])
		}
	}
	return f.Read(paths)
}

func (f fakeFiles) List() ([]string, error) {
	return []string{"docs/", "docs/guide.md", "notes.txt", "b.md", "my notes.md"}, nil
}

func filesHarness(t *testing.T) *harness {
	h := newHarness(t, "text", 100, 20)
	h.m.files = fakeFiles{have: map[string]bool{"notes.txt": true, "b.md": true}}
	return h
}

// lastRequestHas reports whether the last request's body holds s.
func (h *harness) lastRequestHas(s string) bool {
	sent := h.server.requests()
	return len(sent) > 0 && strings.Contains(string(sent[len(sent)-1].body), s)
}

// TestAttachShowsChipsAndSendsThemWithTheNextMessage: /attach reads in a command, the chips
// stand on the composer's label row, and the next message carries the files, then no longer.
func TestAttachShowsChipsAndSendsThemWithTheNextMessage(t *testing.T) {
	h := filesHarness(t)
	h.submit("/attach notes.txt b.md")
	h.send(takeNext[filesRead](h))
	if screen := h.m.View().Content; !strings.Contains(screen, "with [file notes.txt · 1 line] [file b.md · 1 line]") {
		t.Fatalf("the chips are not on the composer's row:\n%s", screen)
	}
	h.submit("what are these?")
	h.feedAll()
	if !h.lastRequestHas(`\u003cfile path=\"notes.txt\"`) || !h.lastRequestHas(`\u003cfile path=\"b.md\"`) {
		t.Fatalf("the request lacks the files: %s", h.server.requests()[0].body)
	}
	if screen := h.m.View().Content; strings.Contains(screen, "with [file") {
		t.Errorf("the chips stay after sending:\n%s", screen)
	}
	if len(h.m.chat.Attached()) != 0 {
		t.Error("the files are still attached")
	}
}

func TestAttachClearDropsTheFiles(t *testing.T) {
	h := filesHarness(t)
	h.submit("/attach notes.txt")
	h.send(takeNext[filesRead](h))
	h.submit("/attach clear")
	if len(h.m.chat.Attached()) != 0 || !strings.Contains(h.status(), "dropped") {
		t.Errorf("after /attach clear: %d attached, status %q", len(h.m.chat.Attached()), h.status())
	}
}

// TestAMentionSendsTheFileItNames: @path sends the message with the file; a message whose
// mention cannot be read goes back to the composer, unsent, with the reason.
func TestAMentionSendsTheFileItNames(t *testing.T) {
	h := filesHarness(t)
	h.submit("review @notes.txt please")
	if len(h.server.requests()) != 0 {
		t.Fatal("sent before the mentioned file was read")
	}
	h.send(takeNext[filesRead](h))
	h.feedAll()
	if !h.lastRequestHas(`\u003cfile path=\"notes.txt\"`) || !h.lastRequestHas("review @notes.txt please") {
		t.Fatalf("request: %s", h.server.requests()[0].body)
	}

	h = filesHarness(t)
	h.m.files = failingFiles{}
	h.submit("look at @secret.txt")
	h.send(takeNext[filesRead](h))
	if h.composer() != "look at @secret.txt" || !strings.Contains(h.status(), "Cannot attach secret.txt: permission denied.") || len(h.server.requests()) != 0 {
		t.Errorf("composer %q, status %q, %d requests", h.composer(), h.status(), len(h.server.requests()))
	}
}

// TestAnAtWordThatNamesNoFileIsJustText: "@alice" is sent as it is, with nothing attached.
func TestAnAtWordThatNamesNoFileIsJustText(t *testing.T) {
	h := filesHarness(t)
	h.submit("ask @alice")
	h.send(takeNext[filesRead](h))
	h.feedAll()
	if !h.lastRequestHas(`"content":"ask @alice"`) {
		t.Errorf("request: %s", h.server.requests()[0].body)
	}
}

type failingFiles struct{ fakeFiles }

func (failingFiles) Mentioned(string) ([]wire.Attachment, []string, error) {
	return nil, nil, errors.New("cannot attach secret.txt: permission denied")
}

// TestTabCompletesTheMentionBeingTyped: typing @ lists the files once (in a command), the
// status line shows the best matches, Tab completes a file (closed with a space) or a folder
// (left open), and a name with a space is quoted.
func TestTabCompletesTheMentionBeingTyped(t *testing.T) {
	h := filesHarness(t)
	h.typeText("read @no")
	h.send(takeNext[filesListed](h))
	if got := h.status(); !strings.Contains(got, "notes.txt") || !strings.Contains(got, "(Tab completes)") {
		t.Fatalf("status while typing a mention: %q", got)
	}
	h.send(keyTab)
	if h.composer() != "read @notes.txt " {
		t.Errorf("Tab made %q", h.composer())
	}
	h.typeText("and @do")
	h.send(keyTab)
	if h.composer() != "read @notes.txt and @docs/" {
		t.Errorf("a folder: %q", h.composer())
	}
	h.typeText("gu")
	h.send(keyTab)
	if h.composer() != "read @notes.txt and @docs/guide.md " {
		t.Errorf("into the folder: %q", h.composer())
	}
	h.typeText("@my")
	h.send(keyTab)
	if !strings.HasSuffix(h.composer(), `@"my notes.md" `) {
		t.Errorf("a name with a space: %q", h.composer())
	}
	if len(h.pending) != 0 {
		for _, p := range h.pending {
			if _, again := p.(filesListed); again {
				t.Error("the files were listed twice")
			}
		}
	}
}

func TestAMentionMatchingNothingSaysSo(t *testing.T) {
	h := filesHarness(t)
	h.typeText("ask @zzz")
	h.send(takeNext[filesListed](h))
	if got := h.status(); !strings.Contains(got, "No file or folder here matches @zzz") {
		t.Errorf("status %q", got)
	}
}

// TestASentFileExpandsUnderItsPrompt: the prompt shows the file's chip; Alt+↑ selects the
// prompt and Ctrl+O shows the file's contents under it.
func TestASentFileExpandsUnderItsPrompt(t *testing.T) {
	h := filesHarness(t)
	h.submit("/attach notes.txt")
	h.send(takeNext[filesRead](h))
	h.submit("read this")
	h.feedAll()
	screen := h.m.View().Content
	if !strings.Contains(screen, "  [file notes.txt · 1 line]") || strings.Contains(screen, "    notes.txt") {
		t.Fatalf("the prompt does not show the chip alone:\n%s", screen)
	}
	h.send(keyAltUp)
	h.send(keyCtrlO)
	if screen := h.m.View().Content; !strings.Contains(screen, "▶ read this") || !strings.Contains(screen, "\n    notes.txt") {
		t.Fatalf("Ctrl+O did not show the file under its prompt:\n%s", screen)
	}
}

func (fakeFiles) Pasted(name string, data []byte) ([]wire.Attachment, []string, error) {
	a := wire.Attachment{Name: name, Kind: wire.AttachImage, MediaType: "image/png", Width: 1, Height: 1, Size: len(data), Data: data}
	return []wire.Attachment{a}, []string{"attached " + a.Chip()}, nil
}
