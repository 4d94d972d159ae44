package view

import (
	"strings"
	"testing"
)

// TestLinesAreTheTranscriptsRows: the lines printed for a list of entries are the rows the
// transcript draws for them, in both styles, whether the entries are cached (drawn on screen
// first) or not; a frame with Fit is only as tall as what it holds.
func TestLinesAreTheTranscriptsRows(t *testing.T) {
	for name, st := range map[string]Styles{"plain": PlainStyles(), "colour": DefaultStyles()} {
		for _, cachedFirst := range []bool{false, true} {
			entries := wideEntries()
			r := NewRenderer(st)
			f := transcriptFrame(entries, 60, 400, 0)
			if cachedFirst {
				transcriptRows(t, r, f)
			}
			got := NewRenderer(st).Lines(f.Entries, 60)
			if cachedFirst {
				got = r.Lines(f.Entries, 60)
			}
			rows, _ := transcriptRows(t, NewRenderer(st), f)
			if len(rows) < len(got) || strings.TrimSpace(strings.Join(rows[len(got):], "")) != "" {
				t.Fatalf("%s: the transcript has %d rows of text past the %d lines", name, len(rows)-len(got), len(got))
			}
			rows = rows[:len(got)]
			if strings.Join(got, "\n") != strings.Join(rows, "\n") {
				t.Fatalf("%s, cached %v: Lines differ from the transcript's rows\n--- lines\n%s\n--- rows\n%s", name, cachedFirst, strings.Join(got, "\n"), strings.Join(rows, "\n"))
			}

			f.Fit = true
			bare := f
			bare.Entries = nil
			chrome := strings.Count(r.Render(bare).Content, "\n") + 1
			fit := r.Render(f)
			if n := strings.Count(fit.Content, "\n") + 1; n != len(got)+chrome || fit.TranscriptHeight != len(got) {
				t.Fatalf("%s: a fitted frame has %d rows (transcript %d) for %d lines of entries", name, n, fit.TranscriptHeight, len(got))
			}
			if h, _ := r.Layout(f); h != len(got) {
				t.Fatalf("%s: Layout of a fitted frame says %d transcript rows, Render %d", name, h, len(got))
			}
		}
	}
}
