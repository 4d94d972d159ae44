package safe_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/phasechat/phasechat/view/safe"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

// escapedRanges is the rule table of Text in declarative form: every code point listed becomes
// <U+XXXX>. TestEveryCodePoint checks classify against it for all of Unicode.
var escapedRanges = [][2]rune{
	{0x0080, 0x009F},   // C1 controls
	{0x00AD, 0x00AD},   // soft hyphen
	{0x061C, 0x061C},   // Arabic letter mark (bidi)
	{0x180E, 0x180E},   // Mongolian vowel separator
	{0x200B, 0x200F},   // ZWSP, ZWNJ, ZWJ, LRM, RLM
	{0x2028, 0x202E},   // line/paragraph separators, bidi embeddings and overrides
	{0x2060, 0x206F},   // word joiner, invisible operators, bidi isolates, deprecated format
	{0xFE0E, 0xFE0F},   // variation selectors 15 and 16, outside an emoji sequence
	{0xFEFF, 0xFEFF},   // BOM / zero-width no-break space
	{0xFFF9, 0xFFFB},   // interlinear annotations
	{0xE0000, 0xE007F}, // tag characters
}

func wantEscaped(r rune) bool {
	for _, rg := range escapedRanges {
		if rg[0] <= r && r <= rg[1] {
			return true
		}
	}
	return false
}

func TestEveryCodePoint(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue // surrogates have no UTF-8 encoding; see TestInvalidUTF8
		}
		in := string(r)
		var want string
		switch {
		case r == '\n' || r == '\t':
			want = in
		case r < 0x20:
			want = string(0x2400 + r)
		case r == 0x7F:
			want = "␡"
		case wantEscaped(r):
			want = fmt.Sprintf("<U+%04X>", r)
		default:
			want = in
		}
		if got := Text(in); got != want {
			t.Fatalf("Text(U+%04X) = %q, want %q", r, got, want)
		}
	}
}

func TestControlPictures(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\x1b", "␛"}, {"\x07", "␇"}, {"\r", "␍"}, {"\b", "␈"}, {"\x00", "␀"}, {"\x7f", "␡"},
		{"\x1b[31mred\x1b[0m", "␛[31mred␛[0m"},
		{"a\nb\tc", "a\nb\tc"},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCodePointFormat(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\u0080", "<U+0080>"},
		{"\u009b", "<U+009B>"},
		{"\u202e", "<U+202E>"},
		{"\ufeff", "<U+FEFF>"},
		{"\U000E0001", "<U+E0001>"},
		{"\U000E007F", "<U+E007F>"},
		{"a\u200db", "a<U+200D>b"},         // a joiner between Latin letters is shown
		{"می\u200cخواهم", "می\u200cخواهم"}, // Persian ZWNJ is spelling (joiners_test.go)
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	const fffd = "\uFFFD"
	for _, tc := range []struct{ in, want string }{
		{"\xff", fffd},
		{"\x9b", fffd},                                // raw 8-bit CSI
		{"\xc2", fffd},                                // truncated at the end
		{"\xe2\x82", fffd + fffd},                     // one U+FFFD per byte, not per maximal subpart
		{"\xe2\x82a", fffd + fffd + "a"},              // truncated before ASCII
		{"\xc0\x9b", fffd + fffd},                     // overlong ESC
		{"\xed\xa0\x80", fffd + fffd + fffd},          // encoded surrogate
		{"\xf4\x90\x80\x80", strings.Repeat(fffd, 4)}, // above U+10FFFF
		{"ok\uFFFDok", "ok\uFFFDok"},                  // a genuine U+FFFD passes
		{"\xe2\x82\xac", "€"},                         // and a valid rune is kept whole
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCleanTextPassesUnchanged(t *testing.T) {
	for _, in := range []string{
		"", "plain ASCII, with punctuation: ~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./",
		"lines\nand\ttabs\n",
		"héllo wörld — “quotes” 世界 🙂 👍🏽 Привет नमस्ते مرحبا",
		"\u00a0nbsp \u200a hair space \u202f narrow nbsp \ufffc object ❤\ufe0f vs16",
	} {
		if got := Text(in); got != in {
			t.Errorf("Text(%q) = %q, want it unchanged", in, got)
		}
	}
}

func TestCleanTextDoesNotAllocate(t *testing.T) {
	ascii := strings.Repeat("The quick brown fox\tjumps over the lazy dog.\n", 100)
	unicode := strings.Repeat("héllo 世界 🙂 Привет\n", 100)
	for name, in := range map[string]string{"ascii": ascii, "unicode": unicode} {
		if n := testing.AllocsPerRun(20, func() { _ = Text(in) }); n != 0 {
			t.Errorf("Text(%s) allocates %v times, want 0", name, n)
		}
	}
	line := strings.Repeat("tool_name-1 ", 10)
	if n := testing.AllocsPerRun(20, func() { _ = Line(line) }); n != 0 {
		t.Errorf("Line(clean) allocates %v times, want 0", n)
	}
}

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"get_weather", "get_weather"},
		{"a\nb", "a⏎b"},
		{"a\tb", "a b"},
		{"a\r\nb", "a␍⏎b"},
		{"\x1b[2J\u202e", "␛[2J<U+202E>"},
	} {
		got := Line(tc.in)
		if got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.ContainsAny(got, "\n\t") {
			t.Errorf("Line(%q) = %q still holds a newline or tab", tc.in, got)
		}
	}
}

func TestIdempotent(t *testing.T) {
	for _, h := range safetest.HostileInputs {
		once := Text(h.Input)
		if twice := Text(once); twice != once {
			t.Errorf("%s: Text(Text(x)) = %q, Text(x) = %q", h.Name, twice, once)
		}
	}
}
