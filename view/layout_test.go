package view

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// wideEntries hold wide, combining and emoji text in every place that wraps.
func wideEntries() []*draft {
	cjk := strings.Repeat("漢字かな交じり文、", 12)
	emoji := strings.Repeat("👍🏽👨‍👩‍👧 ", 15)
	combining := strings.Repeat("e\u0301a\u0300o\u0308 ", 20)
	return []*draft{
		{Role: transcript.RoleUser, Text: cjk + emoji},
		{Role: transcript.RoleAssistant, Reasoning: combining + "\n" + cjk, Expanded: true,
			Text: "# " + cjk + "\n\n" + emoji + "\n\n```\n" + cjk + "\n```\n\n| 列 | 値 |\n|---|---|\n| " + cjk + " | x |\n\n" + combining,
			Cards: []draftCard{{Name: "検索", Status: phase.CallDone, Summary: "q=" + cjk, Result: emoji + "\n" + cjk,
				Args: `{"q":"` + cjk + `"}`, Expanded: true}},
			Mark: transcript.MarkFailed, Note: cjk},
		{Role: transcript.RoleAssistant, Streaming: true, Reasoning: emoji, Text: "前の段落。\n\n" + cjk + combining},
		{Role: transcript.RoleNotice, Text: emoji},
	}
}

// TestLayoutAtEverySize draws every scene and a transcript of wide text at many sizes, in both
// styles: Content always has Height rows and no row is wider than Width.
func TestLayoutAtEverySize(t *testing.T) {
	frames := map[string]func() Frame{}
	for _, sc := range scenes {
		frames[sc.name] = sc.frame
	}
	frames["wide"] = func() Frame {
		return sceneFrame(reduce(submit, text), phase.FocusStop, wideEntries(), streamingKeys)
	}
	for name, mk := range frames {
		for _, st := range []Styles{PlainStyles(), DefaultStyles()} {
			r := NewRenderer(st)
			widths := []int{1, 2, 10, 19, 20, 39, 40, 80, 200}
			if st.Color { // colour costs more to render and changes no width: fewer sizes
				widths = []int{1, 19, 80}
			}
			for _, w := range widths {
				for _, h := range []int{0, 1, 2, 3, 5, 8, 24} {
					f := mk()
					f.Width, f.Height = w, h
					for _, up := range []int{0, 1000} {
						f.ScrollUp = up
						scr := r.Render(f)
						checkShape(t, scr.Content, w, h)
						if scr.Cursor && (scr.CursorX < 0 || scr.CursorX >= w || scr.CursorY < 0 || scr.CursorY >= h) {
							t.Fatalf("%s %dx%d: cursor (%d,%d) outside the screen", name, w, h, scr.CursorX, scr.CursorY)
						}
					}
				}
			}
		}
	}
}

// TestWideTextStaysWhole checks that wrapping never splits or drops a grapheme: the text, with
// spaces and line breaks removed, still holds every cluster in order. (ZWJ sequences are not
// used: the sanitiser shows a zero-width joiner as <U+200D> by design.)
func TestWideTextStaysWhole(t *testing.T) {
	cluster := "👍🏽🇯🇵e\u0301漢"
	word := strings.Repeat(cluster, 30)
	for _, e := range []*draft{{Role: transcript.RoleAssistant, Text: word}, {Role: transcript.RoleAssistant, Text: word, Streaming: true},
		{Role: transcript.RoleUser, Text: word}, {Role: transcript.RoleAssistant, Reasoning: word, Expanded: true}} {
		for _, width := range []int{7, 20, 33} {
			f := hostileFrame(e)
			f.Width, f.Height = width, 200
			scr := NewRenderer(PlainStyles()).Render(f)
			flat := strings.NewReplacer("\n", "", " ", "").Replace(scr.Content)
			if !strings.Contains(flat, strings.Repeat(cluster, 30)) {
				t.Fatalf("width %d: clusters lost:\n%s", width, scr.Content)
			}
			for _, row := range strings.Split(scr.Content, "\n") {
				if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(row, " ")); unicode.Is(unicode.Mn, r) {
					t.Fatalf("width %d: a row starts with a combining mark split from its base: %q", width, row)
				}
			}
			checkShape(t, scr.Content, width, 200)
		}
	}
}

// TestColourLinesAreSelfContained checks that in colour mode no row leaves an SGR open, so no
// style bleeds into the next row (the status line, the composer).
func TestColourLinesAreSelfContained(t *testing.T) {
	for _, sc := range scenes {
		f := sc.frame()
		f.Width = 80
		f.Entries = append(f.Entries, published(wideEntries())...)
		for i, row := range strings.Split(NewRenderer(DefaultStyles()).Render(f).Content, "\n") {
			if open := openSGRAtEnd(row); open {
				t.Fatalf("%s row %d ends with a style open: %q", sc.name, i, row)
			}
		}
	}
}

func openSGRAtEnd(row string) bool {
	open := false
	var state byte
	for len(row) > 0 {
		seq, _, n, next := ansi.DecodeSequence(row, state, nil)
		state = next
		if strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m") {
			open = seq != "\x1b[m" && seq != "\x1b[0m"
		}
		row = row[n:]
	}
	return open
}
