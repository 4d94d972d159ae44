package rows

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// A long run's builder holds a quarter more than its text at most, not the double a doubling
// buffer can hold, and every snapshot taken on the way still reads as it did.
func TestALongRunHoldsLittleMoreThanItsText(t *testing.T) {
	var b Builder
	var snaps []Lines
	line := strings.Repeat("x", 119)
	for i := range 40000 {
		b.Add(line)
		if i%5000 == 0 {
			snaps = append(snaps, b.Snapshot())
		}
		if n := len(b.b); n > bigRun && cap(b.b) > n+n/4+len(line) {
			t.Fatalf("%d bytes of rows held in %d", n, cap(b.b))
		}
	}
	for i, s := range snaps {
		if s.Len() != i*5000+1 || s.At(s.Len()-1) != line {
			t.Fatalf("snapshot %d reads %d rows ending %q", i, s.Len(), s.At(s.Len()-1))
		}
	}
}

// countedSource draws line i as "src i" and counts the lines it drew.
type countedSource struct{ drawn int }

func (c *countedSource) Row(i int) string { c.drawn++; return "src " + strconv.Itoa(i) }

func (c *countedSource) AppendRows(dst []string, lo, hi int) []string {
	for i := lo; i < hi; i++ {
		dst = append(dst, c.Row(i))
	}
	return dst
}

func (c *countedSource) Size() int { return 1000 }

// A run placed in a builder is drawn only where its lines are read, and reads, copies and
// snapshots of the builder see it among the lines added around it, in order.
func TestAPlacedRunIsDrawnOnlyWhereRead(t *testing.T) {
	src := &countedSource{}
	var b Builder
	b.Add("a")
	before := b.Snapshot()
	b.AddSource(src, 1000)
	b.Add("b")
	b.AddSource(src, 2)
	b.Add("c")
	want := []string{"a", "src 0", "src 1", "src 998", "src 999", "b", "src 0", "src 1", "c"}
	rowsOf := func(l Lines) []string {
		return []string{l.At(0), l.At(1), l.At(2), l.At(999), l.At(1000), l.At(1001), l.At(1002), l.At(1003), l.At(1004)}
	}
	for name, l := range map[string]Lines{"snapshot": b.Snapshot(), "compact": b.Compact()} {
		if l.Len() != 1005 {
			t.Fatalf("%s: %d lines, want 1005", name, l.Len())
		}
		if got := rowsOf(l); !slices.Equal(got, want) {
			t.Fatalf("%s reads %q, want %q", name, got, want)
		}
		if got := AppendRange(nil, []Lines{l}, 999, 1004); !slices.Equal(got, want[3:8]) {
			t.Fatalf("%s: rows 999..1003 are %q, want %q", name, got, want[3:8])
		}
	}
	if before.Len() != 1 || before.At(0) != "a" {
		t.Fatalf("a snapshot taken before reads %d lines", before.Len())
	}
	var c Builder
	c.AddRange(b.Snapshot(), 999, 1004)
	if got, want := linesOf(c.Snapshot()), []string{"src 998", "src 999", "b", "src 0", "src 1"}; !slices.Equal(got, want) {
		t.Fatalf("a copied range reads %q, want %q", got, want)
	}
	if src.drawn > 30 {
		t.Fatalf("the placed run drew %d lines for a few reads", src.drawn)
	}
	if b.Size() < 2000 {
		t.Fatalf("a builder holding two placed runs says it holds %d bytes", b.Size())
	}
	if got := b.Snapshot().src.AppendRows(nil, 1003, 1010); !slices.Equal(got, want[7:]) {
		t.Fatalf("reading past the last line gives %q, want %q", got, want[7:])
	}

	// Three runs placed leave room for a fourth: a compact copy holds none of it, nor does the
	// builder once shrunk.
	var spare Builder
	for range 3 {
		spare.Add("x")
		spare.AddSource(src, 5)
	}
	if cap(spare.placed) == len(spare.placed) {
		t.Fatalf("a builder of %d placed runs has no spare room for them", len(spare.placed))
	}
	runs := 3 * (int(unsafe.Sizeof(placed{})) + src.Size()) // the placed runs, no room for more
	mx := spare.Compact().src.(*mixed)
	if got, want := mx.Size(), int(unsafe.Sizeof(*mx))+len(mx.buf)+4*cap(mx.ends)+runs; got != want {
		t.Fatalf("a compact copy holds %d bytes, want %d", got, want)
	}
	roomy := &mixed{placed: make([]placed, 3, 8)} // a run whose placed runs have room for more
	copy(roomy.placed, mx.placed)
	if got, want := roomy.Size(), int(unsafe.Sizeof(*roomy))+runs+5*int(unsafe.Sizeof(placed{})); got != want {
		t.Fatalf("a mixed run with room for 8 placed runs says it holds %d bytes, want %d", got, want)
	}
	if spare.Shrink(); spare.Size() != cap(spare.b)+4*cap(spare.ends)+runs {
		t.Fatalf("a shrunk builder holds %d bytes, want %d", spare.Size(), cap(spare.b)+4*cap(spare.ends)+runs)
	}

	count := NewCounter()
	count.AddSource(src, 7)
	if count.Len() != 7 {
		t.Fatalf("a counter given a 7-line source counts %d", count.Len())
	}
}

func linesOf(l Lines) []string {
	var out []string
	for i := range l.Len() {
		out = append(out, l.At(i))
	}
	return out
}
