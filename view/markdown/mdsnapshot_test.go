package markdown

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/phasechat/phasechat/view/rows"
)

// runsLen is how many display lines runs hold.
func runsLen(runs []rows.Lines) int {
	n := 0
	for _, r := range runs {
		n += r.Len()
	}
	return n
}

func allRows(runs []rows.Lines) []string { return rows.AppendRange(nil, runs, 0, runsLen(runs)) }

// readBackwards is every line of runs, read one at a time from the last, so that each block
// is drawn when its last line is read.
func readBackwards(runs []rows.Lines) []string {
	got := make([]string, runsLen(runs))
	for i := len(got) - 1; i >= 0; i-- {
		got[i] = rows.AppendRange(nil, runs, i, i+1)[0]
	}
	return got
}

// cutAtSpace is text cut about halfway, at a space.
func cutAtSpace(text string) string {
	cut := len(text) / 2
	for text[cut] != ' ' {
		cut++
	}
	return text[:cut]
}

// The lines of a streaming row (and a streaming line) one update returned stay what they were
// after later updates, whichever of the updates' lines are read first, and after the growing
// cell completes.
func TestAStreamingTextsEarlierLinesDoNotChangeWithLaterUpdates(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	m := NewRenderer(NewPalette(Dark()), 80, DefaultMeasure)
	for _, head := range []string{"| a | b |\n|---|---|\n| ", "- "} {
		text := head + longLineOf(r, 40000)
		half := cutAtSpace(text)
		wantHalf, wantWhole := drawnWhole(m, half), drawnWhole(m, text)

		// The earlier lines read after the later update, then the later ones.
		var d Doc
		old := d.Update(m, half, true)
		cur := d.Update(m, text, true)
		if got := readBackwards(old); !slices.Equal(got, wantHalf) {
			t.Fatalf("%q: earlier lines read after a later update: first difference at %d of %d", head, firstDiff(got, wantHalf), len(wantHalf))
		}
		if got := readBackwards(cur); !slices.Equal(got, wantWhole) {
			t.Fatalf("%q: later lines read after the earlier ones: first difference at %d of %d", head, firstDiff(got, wantWhole), len(wantWhole))
		}

		// The end of the earlier lines read first, then the later lines from there on.
		d = Doc{}
		old = d.Update(m, half, true)
		cur = d.Update(m, text, true)
		n := runsLen(old)
		rows.AppendRange(nil, old, n-3, n)
		var got []string
		for i := n - 3; i < runsLen(cur); i++ {
			got = rows.AppendRange(got, cur, i, i+1)
		}
		if got = append(rows.AppendRange(nil, cur, 0, n-3), got...); !slices.Equal(got, wantWhole) {
			t.Fatalf("%q: later lines read after the earlier end: first difference at %d of %d", head, firstDiff(got, wantWhole), len(wantWhole))
		}
	}

	// The growing cell completes, and the next cell grows.
	text := "| a | b |\n|---|---|\n| " + longLineOf(r, 40000)
	half := cutAtSpace(text)
	want := drawnWhole(m, half)
	var d Doc
	old := d.Update(m, half, true)
	d.Update(m, text+" | b cell", true)
	if got := allRows(old); !slices.Equal(got, want) {
		t.Fatalf("earlier lines after the cell completed: first difference at %d of %d", firstDiff(got, want), len(want))
	}
}
