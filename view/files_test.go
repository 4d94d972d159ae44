package view

import (
	"slices"
	"testing"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/markdown"
)

// A prompt with files shows their chips; expanded, each chip with its details under it,
// sanitised (a file's escape sequences are shown, never sent to the terminal).
func TestExpandedPromptShowsItsFiles(t *testing.T) {
	var tr transcript.Transcript
	e := tr.Add(transcript.Spec{Role: transcript.RoleUser, Text: "look\n[file notes.txt · 2 lines] [image red.png · 8×8 · 1 KB]", Files: []transcript.File{
		{Chip: "[file notes.txt · 2 lines]", Details: "one \x1b[31mred\x1b[0m\ntwo\n"},
		{Chip: "[image red.png · 8×8 · 1 KB]", Details: "image/png · 8×8 pixels · 1 KB"},
	}})
	st := newTheme(PlainStyles())
	md := markdown.NewRenderer(st.Markdown, 60, markdown.DefaultMeasure)
	var v entryView
	draw := func() []string {
		v.render(e, pen{st, md})
		var out []string
		for _, s := range v.segs {
			out = append(out, linesSlice(s)...)
		}
		return out
	}
	folded := []string{"› look", "  [file notes.txt · 2 lines] [image red.png · 8×8 · 1 KB]"}
	if got := draw(); !slices.Equal(got, folded) {
		t.Fatalf("folded:\n%q\nwant\n%q", got, folded)
	}
	tr.MoveFocus(-1)
	tr.ToggleFocused()
	want := []string{"▶ look", "  [file notes.txt · 2 lines] [image red.png · 8×8 · 1 KB]",
		"  [file notes.txt · 2 lines]", "    one ␛[31mred␛[0m", "    two",
		"  [image red.png · 8×8 · 1 KB]", "    image/png · 8×8 pixels · 1 KB"}
	if got := draw(); !slices.Equal(got, want) {
		t.Fatalf("expanded:\n%q\nwant\n%q", got, want)
	}
	tr.ToggleFocused()
	if got := draw(); len(got) != len(folded) {
		t.Fatalf("folded again: %q", got)
	}
}
