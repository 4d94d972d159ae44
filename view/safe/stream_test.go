package safe_test

import (
	"strings"
	"testing"
	"unsafe"

	. "github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

// feed appends deltas to a fresh Stream, checking the Stream invariant after every append, and
// returns the finished text. A StreamView, fed the same deltas, must read
// the same at every step.
func feed(t *testing.T, deltas []string) string {
	t.Helper()
	var s, k Stream // k's text is taken after every append
	v := NewStreamView()
	var all, taken strings.Builder
	prev := ""
	for i, d := range deltas {
		s.Append(d)
		v.Append(d)
		k.Append(d)
		all.WriteString(d)
		checkStreamInvariant(t, &s, all.String(), prev)
		prev = s.String()
		if taken.WriteString(k.Take()); taken.String() != prev || k.String() != "" {
			t.Fatalf("after %q: taken %q, String of a Stream = %q", all.String(), taken.String(), prev)
		}
		if i%2 == 0 { // View is read after some appends only, as a renderer reads it
			if got := v.View(all.String()); got != prev {
				t.Fatalf("after %q: View = %q, String of a Stream = %q", all.String(), got, prev)
			}
		}
	}
	v.Finish()
	if got, want := v.View(all.String()), s.Finish(); got != want {
		t.Fatalf("%q finished: View = %q, String of a Stream = %q", all.String(), got, want)
	}
	if taken.WriteString(k.Finish()); taken.String() != s.String() {
		t.Fatalf("%q finished: taken %q, String of a Stream = %q", all.String(), taken.String(), s.String())
	}
	return s.String()
}

// checkStreamInvariant asserts that String() is a prefix of Text(all), that at most MaxHeld
// bytes are held, that what is held is all that is missing (Text of the decided bytes, read in
// their context, is String()), and that the output only grew since prev.
func checkStreamInvariant(t *testing.T, s *Stream, all, prev string) {
	t.Helper()
	n := s.Pending()
	if n < 0 || n > MaxHeld {
		t.Fatalf("Pending() = %d after %q, want 0..%d", n, all, MaxHeld)
	}
	if !strings.HasPrefix(Text(all), s.String()) {
		t.Fatalf("after %q: String()=%q is not a prefix of Text(all) = %q", all, s.String(), Text(all))
	}
	if n > 0 && CheckClean(all[len(all)-n:]) == nil && Text(all) == all && s.String() != all[:len(all)-n] {
		t.Fatalf("after %q: clean text, String()=%q does not hold exactly the %d undecided bytes", all, s.String(), n)
	}
	if !strings.HasPrefix(s.String(), prev) {
		t.Fatalf("after %q: String() = %q no longer starts with earlier %q", all, s.String(), prev)
	}
}

func bytesOf(s string) []string {
	out := make([]string, len(s))
	for i := range len(s) {
		out[i] = s[i : i+1]
	}
	return out
}

func TestStreamMatchesTextAtEverySplit(t *testing.T) {
	inputs := []string{"héllo 世界 🙂", "a\xc2\x9b31m", "\xe2\x82\xe2\x82\xac", "\xf0\x9f\x99", "x\xf0\x9f\x99\x82\xff"}
	for _, h := range safetest.HostileInputs {
		inputs = append(inputs, h.Input)
	}
	for _, e := range emojiSeeds() {
		inputs = append(inputs, e.in)
	}
	for _, in := range inputs {
		if got, want := feed(t, bytesOf(in)), Text(in); got != want {
			t.Errorf("byte by byte %q: got %q, want %q", in, got, want)
		}
		for i := 0; i <= len(in); i++ {
			for j := i; j <= len(in); j++ {
				parts := []string{in[:i], in[i:j], in[j:]}
				if got, want := feed(t, parts), Text(in); got != want {
					t.Fatalf("split %q at %d,%d: got %q, want %q", in, i, j, got, want)
				}
			}
		}
	}
}

func TestStreamHoldsOnlyUnfinishedRunes(t *testing.T) {
	for _, tc := range []struct {
		delta   string
		out     string
		pending int
	}{
		{"abc", "abc", 0},
		{"a\xc2", "a", 1},                 // first byte of U+009B (or of é): undecided
		{"a\xe2\x82", "a", 2},             // two bytes of €
		{"a\xf0\x9f\x99", "a", 3},         // three bytes of 🙂
		{"a\xff", "a\uFFFD", 0},           // never valid: decided at once
		{"a\xe2(", "a\uFFFD(", 0},         // broken by a non-continuation byte: decided
		{"a\x82", "a\uFFFD", 0},           // stray continuation byte: decided
		{"a\xf0\x9f\x99\x82", "a🙂", 0},    // complete
		{"a\x1b", "a␛", 0},                // ESC never waits for the rest of a sequence
		{"a\xed\xa0", "a\uFFFD\uFFFD", 0}, // surrogate prefix: never valid
		{"a\xf4\x90", "a\uFFFD\uFFFD", 0}, // above U+10FFFF: never valid
		{"a\xe0\x80", "a\uFFFD\uFFFD", 0}, // overlong prefix: never valid
	} {
		var s Stream
		s.Append(tc.delta)
		if s.String() != tc.out || s.Pending() != tc.pending {
			t.Errorf("Append(%q): String()=%q Pending()=%d, want %q, %d", tc.delta, s.String(), s.Pending(), tc.out, tc.pending)
		}
	}
}

func TestStreamSplitC1(t *testing.T) {
	var s Stream
	s.Append("a\xc2")
	s.Append("\x9b31mred")
	if got, want := s.Finish(), "a<U+009B>31mred"; got != want {
		t.Fatalf("split U+009B: got %q, want %q", got, want)
	}
	// What per-delta sanitising would have shown instead: the reason Stream exists.
	if perDelta := Text("a\xc2") + Text("\x9b31mred"); perDelta == s.String() {
		t.Fatalf("per-delta sanitising should differ, both gave %q", perDelta)
	}
}

func TestStreamFinishFlushesHeldBytes(t *testing.T) {
	var s Stream
	s.Append("end\xe2\x82")
	if got, want := s.Finish(), "end\uFFFD\uFFFD"; got != want {
		t.Fatalf("Finish() = %q, want %q", got, want)
	}
	if s.Pending() != 0 {
		t.Fatalf("Pending() = %d after Finish, want 0", s.Pending())
	}
	s.Append("\xac") // starts after the flushed bytes: a stray continuation byte
	if got, want := s.String(), "end\uFFFD\uFFFD\uFFFD"; got != want {
		t.Fatalf("Append after Finish: %q, want %q", got, want)
	}
}

func TestStreamShortDeltasAccumulateInHeld(t *testing.T) {
	var s Stream
	for _, d := range []string{"\xf0", "", "\x9f", "\x99"} {
		s.Append(d)
		if s.String() != "" {
			t.Fatalf("after %q: String() = %q, want nothing decided yet", d, s.String())
		}
	}
	s.Append("\x82!")
	if got := s.String(); got != "🙂!" || s.Pending() != 0 {
		t.Fatalf("got %q pending %d, want %q pending 0", got, s.Pending(), "🙂!")
	}
}

// While the text needs no stand-in, a view Stream's text is the text appended: no copy.
func TestStreamViewOfCleanTextIsTheText(t *testing.T) {
	all := strings.Repeat("a clean line of text, é and 世界 ", 1000)
	v := NewStreamView()
	for i := 0; i < len(all); i += 7 {
		v.Append(all[i:min(i+7, len(all))])
	}
	got := v.View(all)
	if got != all[:len(got)] || len(all)-len(got) > MaxHeld {
		t.Fatalf("View holds %d of %d bytes, or differs from the text", len(got), len(all))
	}
	if unsafe.StringData(got) != unsafe.StringData(all) {
		t.Fatal("View copied clean text")
	}
}

// A view Stream cannot be read but through View: it has no String, and its Finish returns no
// text, since either would be partial.
func TestStreamViewIsReadOnlyThroughView(t *testing.T) {
	var v any = NewStreamView()
	if _, ok := v.(interface{ String() string }); ok {
		t.Error("a view Stream has String")
	}
	if _, ok := v.(interface{ Finish() string }); ok {
		t.Error("a view Stream's Finish returns text")
	}
}
