package phase

import "testing"

func TestTextAppendAndForks(t *testing.T) {
	var empty Text
	a := empty.Append("hello")
	b := a.Append(", world")
	c := a.Append(" there") // a fork from an older version must not disturb b
	if a.String() != "hello" || b.String() != "hello, world" || c.String() != "hello there" {
		t.Fatalf("got %q %q %q", a.String(), b.String(), c.String())
	}
	d := b.Append("!")
	if b.String() != "hello, world" || d.String() != "hello, world!" || d.Len() != 13 {
		t.Fatalf("got %q %q", b.String(), d.String())
	}
	if empty.String() != "" || empty.Append("").Len() != 0 {
		t.Fatal("empty text must stay empty")
	}
}

// Strings handed out earlier never change, even when later appends reuse spare capacity.
func TestTextStringsAreStable(t *testing.T) {
	var s Text
	var seen []string
	var want []string
	acc := ""
	for i := 0; i < 200; i++ {
		piece := string(rune('a' + i%26))
		s = s.Append(piece)
		acc += piece
		seen = append(seen, s.String())
		want = append(want, acc)
	}
	for i := range seen {
		if seen[i] != want[i] {
			t.Fatalf("version %d changed to %q", i, seen[i])
		}
	}
}

// A text holds at most a quarter more than its length, or bigText, whichever is larger.
func TestLongTextHoldsLittleMoreThanItsLength(t *testing.T) {
	var s Text
	piece := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for s.Len() < 10<<20 {
		s = s.Append(piece)
		if cap(s.b) > max(s.Len()+s.Len()/4, bigText) {
			t.Fatalf("%d bytes hold %d", s.Len(), cap(s.b))
		}
	}
}
