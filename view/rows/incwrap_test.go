package rows

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
		var w IncWrap
		k := WrapKey{Width: 12 + trial%7, Indent: "  "}
		text := ""
		for step := 0; step < 60; step++ {
			text += pieces[rng.IntN(len(pieces))]
			complete, partial := w.Update(text, k, nil)
			var got []string
			for _, l := range []Lines{complete, partial} {
				for j := range l.Len() {
					got = append(got, l.At(j))
				}
			}
			want := WrapText(text, k.Width, "  ", "  ", nil)
			var wantLines []string
			for j := range want.Len() {
				wantLines = append(wantLines, want.At(j))
			}
			if text[len(text)-1] == '\n' { // the empty partial line is not drawn
				wantLines = wantLines[:len(wantLines)-1]
			}
			if !slices.Equal(got, wantLines) {
				t.Fatalf("text %q width %d:\n got %q\nwant %q", text, k.Width, got, wantLines)
			}
		}
	}
}
