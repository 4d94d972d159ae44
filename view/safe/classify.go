package safe

import "unicode/utf8"

// class names why a decoded rune is unsafe; safeRune means it passes.
type class uint8

const (
	safeRune          class = iota
	c0Control               // U+0000–U+001F; '\n' and '\t' are exempted by the callers' tables
	delControl              // U+007F
	c1Control               // U+0080–U+009F
	invalidByte             // a byte that does not begin a valid UTF-8 encoding
	bidiControl             // U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069
	invisibleFormat         // zero-width, invisible operators, BOM, soft hyphen, deprecated format
	lineSeparator           // U+2028, U+2029
	annotation              // U+FFF9–U+FFFB
	tagCharacter            // U+E0000–U+E007F
	variationSelector       // U+FE0E, U+FE0F
)

// classify says whether the rune r, decoded with width size (RuneError with size 1 is an
// invalid byte), must be replaced, and why. It ignores the '\n'/'\t' exemption: callers decide
// that with their ASCII tables.
func classify(r rune, size int) class {
	switch {
	case r < 0x20:
		return c0Control
	case r < 0x7f:
		return safeRune
	case r == 0x7f:
		return delControl
	case r < 0xa0:
		return c1Control
	case r == 0xad:
		return invisibleFormat
	case r < 0x061c:
		return safeRune
	case r == 0x061c:
		return bidiControl
	case r == 0x180e:
		return invisibleFormat
	case r < 0x200b:
		return safeRune
	case r <= 0x200d:
		return invisibleFormat
	case r <= 0x200f:
		return bidiControl
	case r == 0x2028, r == 0x2029:
		return lineSeparator
	case 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return bidiControl
	case 0x2060 <= r && r <= 0x206f, r == 0xfeff:
		return invisibleFormat
	case r == 0xfe0e, r == 0xfe0f:
		return variationSelector
	case 0xfff9 <= r && r <= 0xfffb:
		return annotation
	case r == utf8.RuneError && size == 1:
		return invalidByte
	case 0xe0000 <= r && r <= 0xe007f:
		return tagCharacter
	}
	return safeRune
}
