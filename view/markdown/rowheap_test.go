package markdown

import (
	"runtime"
	"strings"
	"testing"
)

// A table row streaming two long cells holds where its cells' display lines resume, not the
// lines drawn (a string and a record per display line held three times its text, the lines
// back to back about one and a half): the document holds a small part of its text's size.
// So does one whose cells' display lines end inside links.
func TestAStreamingRowHoldsASmallPartOfItsText(t *testing.T) {
	for _, piece := range []string{"word12 ", linkPiece} {
		cell := strings.Repeat(piece, 280000/len(piece))
		text := "| a | b |\n|---|---|\n| " + cell + " | " + cell
		m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
		var d Doc
		runtime.GC()
		var before, now runtime.MemStats
		runtime.ReadMemStats(&before)
		most := uint64(0)
		for cut, n := 64, 0; cut < len(text)+4096; cut, n = cut+4096, n+1 {
			d.Update(m, text[:min(cut, len(text))], true)
			if n%8 == 0 || cut >= len(text) {
				runtime.GC()
				runtime.ReadMemStats(&now)
				most = max(most, now.HeapAlloc-min(now.HeapAlloc, before.HeapAlloc))
			}
		}
		runtime.KeepAlive(&d)
		if x := float64(most) / float64(len(text)); x > 0.25 {
			t.Fatalf("a %d-byte streaming row of %q held %.2f times its text", len(text), piece, x)
		}
	}
}

// A long row, once complete, holds neither its drawing nor the spare room its growth left:
// what draws it holds a small part of its text's size.
func TestACompleteLongRowHoldsNoSpareRoom(t *testing.T) {
	cell := strings.Repeat("word12 ", 50000)
	text := "| a | b |\n|---|---|\n| " + cell + " | " + cell + " |\n"
	m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
	var d Doc
	d.Update(m, text, true)
	if held := d.lay.tail.Size(); held > len(text)/16 {
		t.Fatalf("a complete %d-byte row is held in %d bytes", len(text), held)
	}
}

// A long line streaming holds where its committed display lines resume and the last few of
// them drawn, not all of them: the document holds a small part of its text's size (it held
// about its size drawn).
func TestAStreamingLineHoldsASmallPartOfItsText(t *testing.T) {
	text := "- " + strings.Repeat("word12 **bold** ", 35000)
	m := NewRenderer(NewPalette(Dark()), 120, DefaultMeasure)
	var d Doc
	runtime.GC()
	var before, now runtime.MemStats
	runtime.ReadMemStats(&before)
	most := uint64(0)
	for cut, n := 64, 0; cut < len(text)+4096; cut, n = cut+4096, n+1 {
		d.Update(m, text[:min(cut, len(text))], true)
		if n%8 == 0 || cut >= len(text) {
			runtime.GC()
			runtime.ReadMemStats(&now)
			most = max(most, now.HeapAlloc-min(now.HeapAlloc, before.HeapAlloc))
		}
	}
	runtime.KeepAlive(&d)
	if x := float64(most) / float64(len(text)); x > 0.25 {
		t.Fatalf("a %d-byte streaming line held %.2f times its text", len(text), x)
	}
}
