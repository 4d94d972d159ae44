package safe

import (
	"strings"
	"unicode/utf8"
)

// JSON returns the JSON text b with every character the screen would show as a marker (C1
// controls, bidi overrides and isolates, invisible and tag characters, DEL; see [Text]) written
// as a \u escape, so that the text is safe to print and still decodes to the same strings.
// b must be JSON as encoding/json writes it: a character outside a string is never one of these,
// and control characters below U+0020 are escaped already. An invalid byte becomes \ufffd, as
// encoding/json itself would decode it. b is returned as it is when nothing needs escaping.
func JSON(b []byte) []byte {
	s := string(b)
	i, _ := scan(s, 0, jsonPass, true)
	if i == len(s) {
		return b
	}
	var out strings.Builder
	out.Grow(len(s) + 16)
	from := 0
	for i < len(s) {
		out.WriteString(s[from:i])
		r, size := decode(s[i:])
		writeJSONEscape(&out, r, size)
		from = i + size
		i, _ = scan(s, from, jsonPass, true)
	}
	out.WriteString(s[from:])
	return []byte(out.String())
}

// jsonPass is textPass plus '\r', which JSON may hold as white space between values.
var jsonPass = func() *[utf8.RuneSelf]bool {
	t := *textPass
	t['\r'] = true
	return &t
}()

func writeJSONEscape(b *strings.Builder, r rune, size int) {
	if r == utf8.RuneError && size == 1 {
		r = utf8.RuneError
	}
	if r > 0xffff { // a surrogate pair
		r -= 0x10000
		writeU(b, 0xd800+(r>>10))
		writeU(b, 0xdc00+(r&0x3ff))
		return
	}
	writeU(b, r)
}

func writeU(b *strings.Builder, r rune) {
	const hexDigits = "0123456789abcdef"
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}
