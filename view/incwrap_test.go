package view

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIncWrapEqualsWholeWrap appends random pieces (with newlines, wide runes, long words) and
// checks the incremental wrap always equals wrapping the whole text at once.
func TestIncWrapEqualsWholeWrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"word ", "中文", "\n", "\n\n", "x", "supercalifragilisticexpialidocious", " ", "👍🏽", "\t", "e\u0301"}
	for trial := 0; trial < 50; trial++ {
		var w incWrap
		k := wrapKey{width: 12 + trial%7, indent: "  "}
		text := ""
		for step := 0; step < 60; step++ {
			text += pieces[rng.IntN(len(pieces))]
			complete, partial := w.update(text, k, nil)
			var got []string
			for _, l := range []lines{complete, partial} {
				for j := range l.len() {
					got = append(got, l.at(j))
				}
			}
			want := wrapText(text, k.width, "  ", "  ", nil)
			if text[len(text)-1] == '\n' { // the empty partial line is not drawn
				want = linesOf(linesSlice(want)[:want.len()-1]...)
			}
			var wantLines []string
			for j := range want.len() {
				wantLines = append(wantLines, want.at(j))
			}
			if !slices.Equal(got, wantLines) {
				t.Fatalf("text %q width %d:\n got %q\nwant %q", text, k.width, got, wantLines)
			}
		}
	}
}
