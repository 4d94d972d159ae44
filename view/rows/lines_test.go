package rows

import (
	"strings"
	"testing"
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
