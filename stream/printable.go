package stream

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// printable makes untrusted text safe to print to a terminal, by the rules of DESIGN.md §7:
// C0 controls and DEL become Control Pictures (except \n and \t); C1 controls, bidi
// controls, zero-width and tag characters become <U+XXXX>; invalid UTF-8 becomes U+FFFD.
// (Only `replay` prints here; the chat's screen uses the view package's sanitiser.)
func printable(s string) string {
	if isPlainASCII(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case hidden(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// hidden reports the characters that are invisible or reorder text: C1 controls, bidi
// controls, zero-width characters and tags.
func hidden(r rune) bool {
	switch {
	case 0x80 <= r && r <= 0x9f,
		r == 0x061c, r == 0x200e, r == 0x200f,
		0x202a <= r && r <= 0x202e,
		0x2066 <= r && r <= 0x2069,
		0x200b <= r && r <= 0x200d, r == 0x2060, r == 0xfeff,
		0xe0000 <= r && r <= 0xe007f:
		return true
	}
	return false
}
