// Package vtcheck replays what the renderer writes into a terminal emulator and checks that the
// emulator's screen ends up holding the cells the renderer was given. It is a module of its own
// so that the emulator, which itself requires this module, stays out of the renderer's
// requirements.
package vtcheck

import (
	"bytes"
	"fmt"
	"image/color"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// term is a renderer writing into an emulator of the same size.
type term struct {
	out bytes.Buffer
	r   *uv.TerminalRenderer
	emu *vt.Emulator
}

// newTerm is a w x h terminal of termType, drawn on as a full-screen program draws (absolute
// cursor moves) or, inline, as an inline one does (relative moves from where the cursor is).
func newTerm(termType string, w, h int, inline bool) *term {
	t := &term{emu: vt.NewEmulator(w, h)}
	t.r = uv.NewTerminalRenderer(&t.out, []string{"TERM=" + termType, "COLORTERM=truecolor"})
	t.r.SetColorProfile(colorprofile.TrueColor)
	t.r.SetFullscreen(!inline)
	t.r.SetRelativeCursor(inline)
	t.r.SetScrollOptim(true)
	t.r.Resize(w, h)
	t.r.Erase()
	return t
}

// draw renders scr, feeds the bytes to the emulator and returns them.
func (t *term) draw(tb testing.TB, scr *uv.ScreenBuffer) string {
	tb.Helper()
	t.r.Render(scr.RenderBuffer)
	if err := t.r.Flush(); err != nil {
		tb.Fatal(err)
	}
	out := t.out.String()
	t.out.Reset()
	if _, err := t.emu.WriteString(out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// mismatch describes the first cell where the emulator's screen differs from scr, or is "".
func (t *term) mismatch(scr *uv.ScreenBuffer) string {
	w, h := scr.Width(), scr.Height()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			want, got := scr.CellAt(x, y), t.emu.CellAt(x, y)
			if !sameCell(want, got) {
				return fmt.Sprintf("cell %d,%d: want %s, the terminal has %s", x, y, describe(want), describe(got))
			}
		}
	}
	return ""
}

// sameCell compares what a cell shows: a missing cell and an unstyled space are the same blank,
// colours are compared by value, and a space's foreground, boldness and the like are not
// compared unless it is reversed or struck through (an erase paints the background only, and
// nothing else of a space can be seen).
func sameCell(want, got *uv.Cell) bool {
	a, b := normal(want), normal(got)
	if a.Content == " " && b.Content == " " {
		const seen = uv.AttrReverse | uv.AttrStrikethrough
		as, bs := a.Style.Attrs&seen, b.Style.Attrs&seen
		return as == bs && a.Style.Underline == b.Style.Underline && sameColor(a.Style.Bg, b.Style.Bg) &&
			(as == 0 || sameColor(a.Style.Fg, b.Style.Fg))
	}
	return a.Content == b.Content && a.Width == b.Width && a.Style.Attrs == b.Style.Attrs &&
		a.Style.Underline == b.Style.Underline && sameColor(a.Style.Fg, b.Style.Fg) &&
		sameColor(a.Style.Bg, b.Style.Bg)
}

func normal(c *uv.Cell) uv.Cell {
	if c == nil {
		return uv.Cell{Content: " ", Width: 1}
	}
	n := *c
	if n.Content == "" && n.Width != 0 {
		n.Content = " "
	}
	return n
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}

func describe(c *uv.Cell) string {
	n := normal(c)
	return fmt.Sprintf("%q (width %d, attrs %d, underline %d, fg %v, bg %v)", n.Content, n.Width,
		n.Style.Attrs, n.Style.Underline, n.Style.Fg, n.Style.Bg)
}

// screenOf lays out rows of cells on a fresh screen buffer of the given size, every row marked
// as drawn (as a program's frame is), so a row left empty is diffed too.
func screenOf(w, h int, rows [][]uv.Cell) *uv.ScreenBuffer {
	scr := uv.NewScreenBuffer(w, h)
	for y := 0; y < h; y++ {
		scr.TouchLine(0, y, w)
	}
	for y, row := range rows {
		x := 0
		for _, c := range row {
			if x+c.Width > w {
				break
			}
			cell := c
			scr.SetCell(x, y, &cell)
			x += max(c.Width, 1)
		}
	}
	return &scr
}

// textRow is s in one style, indented as a chat reply is.
func textRow(s string, style uv.Style) []uv.Cell {
	var row []uv.Cell
	for _, r := range s {
		row = append(row, uv.Cell{Content: string(r), Width: 1, Style: style})
	}
	return row
}

// longReply is the screen of a long reply scrolled to line first: "  Line N: ..." rows.
func longReply(w, h, first int) *uv.ScreenBuffer {
	rows := make([][]uv.Cell, h)
	for y := range rows {
		rows[y] = textRow(fmt.Sprintf("  Line %d: the quick brown fox jumps over the lazy dog.", first+y), uv.Style{})
	}
	return screenOf(w, h, rows)
}

// When the line numbers gain a digit, every row's tail moves right by one cell: the terminal
// is told to insert a cell and given the changed digits, not sent every row again, and its
// screen is the new one.
func TestDigitCarryInsertsACell(t *testing.T) {
	const w, h = 120, 34
	for _, termType := range []string{"tmux-256color", "xterm-256color"} {
		t.Run(termType, func(t *testing.T) {
			tm := newTerm(termType, w, h, false)
			tm.draw(t, longReply(w, h, 561))
			next := longReply(w, h, 1054)
			out := tm.draw(t, next)
			if m := tm.mismatch(next); m != "" {
				t.Fatalf("after the carry, %s; bytes: %q", m, out)
			}
			if n := strings.Count(out, ansi.InsertCharacter(1)); n != h {
				t.Errorf("%d rows were shifted with an insert, want %d; bytes: %q", n, h, out)
			}
			if strings.Contains(out, "quick") {
				t.Errorf("a row's unchanged tail was written again: %q", out)
			}
		})
	}
}

// palette is the styles random cells take: plain, coloured, bold, underlined, reversed, and a
// background colour (which a terminal's insert and erase may or may not paint).
var palette = []uv.Style{
	{},
	{Fg: ansi.IndexedColor(111)},
	{Fg: ansi.IndexedColor(245), Attrs: uv.AttrBold},
	{Underline: uv.UnderlineSingle},
	{Attrs: uv.AttrReverse},
	{Bg: ansi.IndexedColor(63), Fg: ansi.IndexedColor(231)},
}

// glyphs is what random cells hold: ASCII, a wide character and a space.
var glyphs = []string{"a", "b", "1", "2", ":", ".", " ", " ", "─", "世"}

func randomCell(rng *rand.Rand) uv.Cell {
	g := glyphs[rng.IntN(len(glyphs))]
	return uv.Cell{Content: g, Width: ansi.StringWidth(g), Style: palette[rng.IntN(len(palette))]}
}

func randomRow(rng *rand.Rand, w int) []uv.Cell {
	row := make([]uv.Cell, rng.IntN(w+1))
	for i := range row {
		row[i] = randomCell(rng)
	}
	return row
}

// edit is row changed the way a streamed screen changes: cells inserted or deleted somewhere
// (the tail moves), cells overwritten, the row cut short or made longer, or left alone.
func edit(rng *rand.Rand, row []uv.Cell, w int) []uv.Cell {
	row = append([]uv.Cell(nil), row...)
	at := rng.IntN(len(row) + 1)
	switch rng.IntN(6) {
	case 0, 1:
		ins := make([]uv.Cell, 1+rng.IntN(4))
		for i := range ins {
			ins[i] = randomCell(rng)
		}
		row = append(row[:at], append(ins, row[at:]...)...)
	case 2:
		row = append(row[:at], row[min(len(row), at+1+rng.IntN(4)):]...)
	case 3:
		for i := at; i < len(row) && i < at+3; i++ {
			row[i] = randomCell(rng)
		}
	case 4:
		row = row[:at]
		for n := rng.IntN(w / 2); n > 0; n-- {
			row = append(row, randomCell(rng))
		}
	}
	return row
}

// Over random pairs of screens whose rows differ by inserted, deleted and overwritten cells
// of mixed styles and widths, the terminal ends up showing exactly the new screen.
func TestRandomEditsReachTheScreen(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	for round := 0; round < 400; round++ {
		w, h := 8+rng.IntN(40), 1+rng.IntN(6)
		termType := []string{"tmux-256color", "xterm-256color", "screen", "linux"}[round%4]
		inline := round%8 >= 4
		tm := newTerm(termType, w, h, inline)
		rows := make([][]uv.Cell, h)
		for y := range rows {
			rows[y] = randomRow(rng, w)
		}
		var log []string
		for frame := 0; frame < 6; frame++ {
			if frame > 0 {
				for y := range rows {
					rows[y] = edit(rng, rows[y], w)
				}
			}
			scr := screenOf(w, h, rows)
			log = append(log, tm.draw(t, scr))
			if m := tm.mismatch(scr); m != "" {
				t.Fatalf("round %d (%s, %dx%d, inline %v), frame %d: %s\nwant:\n%s\nthe terminal shows:\n%s\nbytes of each frame: %q",
					round, termType, w, h, inline, frame, m, scr.Render(), tm.emu.Render(), log)
			}
		}
	}
}

// BenchmarkDigitCarry draws the frame where a 120x34 screen of "Line N:" rows moves from line
// 561 to line 1054 and reports the bytes it writes.
func BenchmarkDigitCarry(b *testing.B) {
	const w, h = 120, 34
	var n int
	for b.Loop() {
		tm := newTerm("tmux-256color", w, h, false)
		tm.draw(b, longReply(w, h, 561))
		n = len(tm.draw(b, longReply(w, h, 1054)))
	}
	b.ReportMetric(float64(n), "bytes/frame")
}
