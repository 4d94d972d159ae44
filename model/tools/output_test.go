package tools

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHeadTailKeepsEverythingThatFits(t *testing.T) {
	for _, n := range []int{0, 1, 99, 100} {
		in := strings.Repeat("x", n)
		if got := capText(in, 100); got != in {
			t.Errorf("%d bytes: got %q", n, got)
		}
	}
}

func TestHeadTailKeepsHeadAndTailAroundAMarker(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		want  string
	}{
		{"0123456789", 4, "01\n… [6 bytes omitted] …\n89"},
		{"0123456789", 5, "01\n… [5 bytes omitted] …\n789"},
		// é is 2 bytes: the head may not end and the tail may not start inside one.
		{"aé" + strings.Repeat("-", 10) + "éb", 6, "aé\n… [10 bytes omitted] …\néb"},
		{"éé" + strings.Repeat("-", 10) + "éé", 6, "é\n… [14 bytes omitted] …\né"},
		{"€€€€€€", 8, "€\n… [12 bytes omitted] …\n€"},
	} {
		if got := capText(tc.in, tc.limit); got != tc.want {
			t.Errorf("capText(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
		}
	}
}

func TestHeadTailIsTheSameWhateverTheWriteSizes(t *testing.T) {
	in := []byte(strings.Repeat("héllo wörld ", 500))
	want := capText(string(in), 301)
	for _, chunk := range []int{1, 2, 3, 7, 150, 151, 1000} {
		w := newHeadTail(301)
		for rest := in; len(rest) > 0; {
			n := min(chunk, len(rest))
			w.Write(rest[:n])
			rest = rest[n:]
		}
		if got := w.String(); got != want {
			t.Errorf("chunks of %d: %q\nwant %q", chunk, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		s       string
		n       int
		runes   string
		byteCut string
	}{
		{"hello", 5, "hello", "hello"},
		{"hello!", 5, "hell…", "hello…"},
		{"ééééé", 3, "éé…", "é…"},
		{"a", 1, "a", "a"},
	} {
		if got := truncateRunes(tc.s, tc.n); got != tc.runes {
			t.Errorf("truncateRunes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.runes)
		}
		if got := truncateBytes(tc.s, tc.n); got != tc.byteCut {
			t.Errorf("truncateBytes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.byteCut)
		}
	}
}

func FuzzHeadTail(f *testing.F) {
	f.Add([]byte("hello, world"), 4, 3)
	f.Add([]byte("ééé€€€😀😀"), 7, 1)
	f.Add([]byte{0xff, 0xfe, 'a', 0xc3}, 2, 1)
	f.Fuzz(func(t *testing.T, in []byte, limit, chunk int) {
		limit = 2 + abs(limit)%64
		chunk = 1 + abs(chunk)%16
		w := newHeadTail(limit)
		for rest := in; len(rest) > 0; {
			n := min(chunk, len(rest))
			w.Write(rest[:n])
			rest = rest[n:]
		}
		got := w.String()
		if len(in) <= limit {
			if got != string(in) {
				t.Fatalf("fitting input changed: %q -> %q", in, got)
			}
			return
		}
		head, rest, ok := strings.Cut(got, "\n… [")
		if !ok {
			t.Fatalf("no marker in %q", got)
		}
		var omitted int
		var tail string
		if _, err := fmt.Sscanf(rest, "%d bytes omitted] …\n", &omitted); err != nil {
			t.Fatalf("marker %q: %v", rest, err)
		}
		_, tail, _ = strings.Cut(rest, "] …\n")
		if !bytes.HasPrefix(in, []byte(head)) || !bytes.HasSuffix(in, []byte(tail)) ||
			len(head)+omitted+len(tail) != len(in) || len(head)+len(tail) > limit {
			t.Fatalf("in %q limit %d: head %q omitted %d tail %q", in, limit, head, omitted, tail)
		}
		if utf8.Valid(in) && !utf8.ValidString(got) {
			t.Fatalf("valid UTF-8 cut inside a rune: %q", got)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
