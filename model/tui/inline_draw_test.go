package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/view"
)

// Inline, Update draws nothing: a whole turn with a tool, its prints, and the card keys over
// printed cards leave the screen renderer's call count at zero, while the print commands drew
// the whole transcript into the scrollback.
func TestInlineUpdateDrawsNothing(t *testing.T) {
	ih := newInlineHarness(t, "seed", 80, 24)
	counter := &countingRenderer{screenRenderer: ih.m.renderer}
	ih.m.renderer = counter
	ih.submit("find the headings")
	ih.drain()
	if got, want := ih.scrollback(), ih.transcriptText(); got != want {
		t.Fatalf("the scrollback is not the transcript\n--- printed\n%s\n--- transcript\n%s", got, want)
	}
	for _, k := range []tea.KeyPressMsg{keyAltUp, keyAltUp, keyCtrlO, keyAltDown} {
		ih.send(k)
	}
	if counter.calls != 0 {
		t.Fatalf("Update called the screen renderer %d times", counter.calls)
	}
}

// The print command draws what the entries were when it was issued, on its own goroutine,
// while Update goes on changing them: the card keys move a focus over them and expand one
// (run with -race: the command reads snapshots, never the transcript's entries).
func TestInlinePrintRunsBesideUpdate(t *testing.T) {
	h := newHarness(t, "seed", 80, 24)
	h.m.inline = newInlineMode(h.m.chat, view.PlainStyles(), 0)
	h.m.sized = false // no size yet: nothing is printed
	ih := &inlineHarness{harness: h}
	ih.submit("find the headings")
	ih.drain()
	want := ih.transcriptText()

	_, print := h.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if print == nil {
		t.Fatal("the settled turn was not handed to a print command")
	}
	printed := make(chan string)
	go func() {
		var texts []string
		runCmd(print, func(msg tea.Msg) {
			if text, ok := printedText(msg); ok {
				texts = append(texts, ansi.Strip(text))
			}
		})
		printed <- strings.Join(texts, "\n")
	}()
	for range 20 {
		for _, k := range []tea.KeyPressMsg{keyAltUp, keyCtrlO, keyAltUp, keyCtrlO, keyAltDown} {
			h.send(k)
		}
		h.m.View()
	}
	if got := <-printed; got != want {
		t.Fatalf("the print is not the transcript as it was issued\n--- printed\n%s\n--- transcript\n%s", got, want)
	}
}
