package tea

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// inlineAreaAt draws an inline frame at width 80 (lines of 70, 0, 30 and 61 cells, the cursor
// on the last line's column 45) and returns the renderer with its output emptied.
func inlineAreaAt(t *testing.T, altScreen bool) (*cursedRenderer, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	r := newCursedRenderer(&out, []string{"TERM=xterm-256color"}, 80, 24)
	r.start()
	v := NewView(strings.Join([]string{
		strings.Repeat("a", 70), "", strings.Repeat("b", 30), strings.Repeat("c", 61),
	}, "\n"))
	v.Cursor = NewCursor(45, 3)
	v.AltScreen = altScreen
	r.render(v)
	if err := r.flush(false); err != nil {
		t.Fatal(err)
	}
	if x, y := r.scr.Position(); x != 45 || y != 3 {
		t.Fatalf("the cursor is at %d,%d after the frame, want 45,3", x, y)
	}
	out.Reset()
	return r, &out
}

// Narrowed to 30 columns, a terminal that re-wraps puts the frame's lines on 3, 1, 1 and 3 rows
// and the cursor on the second row of the last: the area starts 6 rows above it. The resize
// moves the cursor there at once, and the next frame erases from there before it draws.
func TestNarrowingMovesToTheRewrappedTop(t *testing.T) {
	r, out := inlineAreaAt(t, false)
	r.resize(30, 24)
	if got, want := out.String(), "\r"+ansi.CursorUp(6); got != want {
		t.Fatalf("the resize wrote %q, want %q", got, want)
	}
	if x, y := r.scr.Position(); x != 0 || y != 0 {
		t.Fatalf("the renderer believes the cursor is at %d,%d, want the area's top-left corner", x, y)
	}
	out.Reset()
	if err := r.flush(false); err != nil {
		t.Fatal(err)
	}
	erase := strings.Index(out.String(), ansi.EraseScreenBelow)
	if erase < 0 || out.String()[:erase] != ansi.ResetModeTextCursorEnable { // no move before the erase
		t.Fatalf("the frame after the resize does not erase from the area's top first: %q", out.String())
	}
}

// Widened, no line re-wraps: the area starts as many rows above the cursor as its line, and
// the alternate screen, which the terminal does not re-wrap into a history, moves nothing.
func TestWideningAndTheAltScreenMoveOnlyAsFarAsTheCursorsLine(t *testing.T) {
	r, out := inlineAreaAt(t, false)
	r.resize(120, 24)
	if got, want := out.String(), "\r"+ansi.CursorUp(3); got != want {
		t.Fatalf("widening wrote %q, want %q", got, want)
	}

	r, out = inlineAreaAt(t, true)
	r.resize(30, 24)
	if out.Len() != 0 {
		t.Fatalf("a resize in the alternate screen wrote %q", out.String())
	}

	r, out = inlineAreaAt(t, false)
	r.resize(80, 30) // the height alone: nothing re-wraps
	if out.Len() != 0 {
		t.Fatalf("a change of height alone wrote %q", out.String())
	}
}

// rewrappedRows and lineWidth: a line takes its used cells over the width, rounded up, and at
// least one row; trailing blanks are not used, a styled blank is.
func TestRewrappedRows(t *testing.T) {
	for _, tc := range []struct{ used, width, rows int }{
		{0, 30, 1}, {1, 30, 1}, {30, 30, 1}, {31, 30, 2}, {61, 30, 3}, {70, 100, 1},
	} {
		if got := rewrappedRows(tc.used, tc.width); got != tc.rows {
			t.Errorf("rewrappedRows(%d, %d) = %d, want %d", tc.used, tc.width, got, tc.rows)
		}
	}
	r, _ := inlineAreaAt(t, false)
	for y, want := range []int{70, 0, 30, 61, 0} {
		if got := lineWidth(r.cellbuf.Buffer, y); got != want {
			t.Errorf("line %d is %d cells wide, want %d", y, got, want)
		}
	}
	v := NewView("x \x1b[44m \x1b[m   ")
	r.render(v)
	if err := r.flush(false); err != nil {
		t.Fatal(err)
	}
	if got := lineWidth(r.cellbuf.Buffer, 0); got != 3 {
		t.Errorf("a line ending in a styled blank is %d cells wide, want 3", got)
	}
}
