// Package jsonstr reads JSON string literals as encoding/json decodes them, in one pass:
// escapes decoded, a \u surrogate pair joined, a lone surrogate half and each byte of invalid
// UTF-8 replaced with U+FFFD, a control byte or a bad escape refused. A body with nothing to
// decode is returned as a substring of the input, not a copy. The decoders of stream/wire and
// the session log's reader share it.
package jsonstr

import (
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Halves are the UTF-16 surrogate halves a string's \u escapes left unpaired at its edges: a
// low half as its very first escape, a high half as its very last (0: none). Each was decoded
// as U+FFFD, the first three bytes or the last three of the text.
type Halves struct{ Low, High rune }

// Scan reads the string literal whose body starts at s[start], just after its opening quote.
// It returns the index just after the closing quote and the text, with the lone halves at its
// edges; ok is false when the literal is not valid JSON (a control byte, a bad escape, no
// closing quote).
func Scan(s string, start int) (end int, text string, halves Halves, ok bool) {
	i := plainRun(s, start)
	if i < len(s) && s[i] == '"' {
		return i + 1, s[start:i], Halves{}, true
	}
	end, text, halves, _, ok = scanRest(s, start, i)
	return end, text, halves, ok
}

// ScanBytes is Scan over b, for a reader whose buffer is reused: the text is always a string
// of its own.
func ScanBytes(b []byte, start int) (end int, text string, ok bool) {
	s := unsafe.String(unsafe.SliceData(b), len(b)) // read-only view
	i := plainRun(s, start)
	if i < len(s) && s[i] == '"' {
		return i + 1, string(b[start:i]), true
	}
	end, text, _, fresh, ok := scanRest(s, start, i)
	if ok && !fresh {
		text = strings.Clone(text)
	}
	return end, text, ok
}

// plainRun returns the index of the first byte of src from i on that is not plain ASCII (or
// len(src)), passing over 8 bytes at a time.
func plainRun(src string, i int) int {
	for ; i+8 <= len(src); i += 8 {
		x := word(src, i)
		if m := specialBytes(x) | x&0x8080808080808080; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(src) && plainASCII[src[i]] {
		i++
	}
	return i
}

// plainASCII marks the bytes a string holds as they are: printable ASCII but '"' and '\\'.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// specialBytes marks, by the high bit of each of the 8 bytes of x, a quote, a backslash or a
// control byte (the bytes that end, escape or invalidate a string's body); zero when there is
// none. The lowest marked byte is exact (the ones above it may be false marks), so the first
// special byte of a word is at bits.TrailingZeros64(mask)/8.
func specialBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, b := x^('"'*ones), x^('\\'*ones)
	return ((q-ones) & ^q | (b-ones) & ^b | (x-0x20*ones) & ^x) & highs
}

// word is the 8 bytes of s at i as one little-endian number.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// bodyEnd finds the closing quote of the body that starts at start, from i, the first byte of
// it that is not plain ASCII. It passes over plain bytes 8 at a time, jumps to the first
// special one, and checks escapes and UTF-8 on the way, so the body is decoded (or returned as
// it is) without another scan. ok is false when the literal is not valid JSON.
func bodyEnd(src string, i int) (quote int, escaped, invalid, ok bool) {
	for i < len(src) {
		if i+8 <= len(src) {
			x := word(src, i)
			m := specialBytes(x)
			if m == 0 && x&0x8080808080808080 == 0 {
				i += 8
				continue
			}
			if n := bits.TrailingZeros64(m|x&0x8080808080808080) / 8; n > 0 {
				i += n
				continue
			}
		}
		c := src[i]
		switch {
		case plainASCII[c]:
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[i:])
			invalid = invalid || r == utf8.RuneError && size == 1
			i += size
		case c == '"':
			return i, escaped, invalid, true
		case c == '\\' && i+1 < len(src):
			escaped = true
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(src) || !isHex(src[i+2]) || !isHex(src[i+3]) || !isHex(src[i+4]) || !isHex(src[i+5]) {
					return 0, false, false, false
				}
				i += 6
			default:
				return 0, false, false, false
			}
		default: // a control byte, or a '\\' that ends the input
			return 0, false, false, false
		}
	}
	return 0, false, false, false
}

// scanRest is Scan from i, the first byte of the body that is not plain ASCII; fresh says the
// text was decoded into a string of its own.
func scanRest(src string, start, i int) (end int, text string, halves Halves, fresh, ok bool) {
	quote, escaped, invalid, ok := bodyEnd(src, i)
	switch {
	case !ok:
		return 0, "", Halves{}, false, false
	case !escaped && !invalid:
		return quote + 1, src[start:quote], Halves{}, false, true
	}
	text, halves = unescapeChecked(src[start:quote], !invalid)
	return quote + 1, text, halves, true, true
}

// SkipBytes passes over the string literal whose body starts at b[start] without decoding it,
// and returns the index just after its closing quote; ok is false exactly when Scan's is.
func SkipBytes(b []byte, start int) (end int, ok bool) {
	s := unsafe.String(unsafe.SliceData(b), len(b)) // read-only view
	i := plainRun(s, start)
	if i < len(s) && s[i] == '"' {
		return i + 1, true
	}
	quote, _, _, ok := bodyEnd(s, i)
	return quote + 1, ok
}

// Unescape decodes the body of a valid JSON string literal (the text between its quotes) as
// encoding/json does: escapes decoded, a \u surrogate pair joined, a lone surrogate half and
// each byte of invalid UTF-8 replaced with U+FFFD. It also reports the lone halves at the
// text's edges. A body with no escapes and valid UTF-8 is returned as it is.
func Unescape(body string) (string, Halves) {
	valid := utf8.ValidString(body)
	if valid && strings.IndexByte(body, '\\') < 0 {
		return body, Halves{}
	}
	return unescapeChecked(body, valid)
}

// unescapeChecked is Unescape for a body whose UTF-8 was checked already: valid says there
// is no invalid byte in it, so runs between escapes are copied as they are.
func unescapeChecked(body string, valid bool) (string, Halves) {
	var halves Halves
	var b strings.Builder
	b.Grow(len(body) + 2*utf8.UTFMax)
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c != '\\':
			// A run up to the next escape: copied whole when it is valid UTF-8 (the common
			// case), else rune by rune with each invalid byte replaced.
			end := len(body)
			if j := strings.IndexByte(body[i:], '\\'); j >= 0 {
				end = i + j
			}
			if run := body[i:end]; valid || utf8.ValidString(run) {
				b.WriteString(run)
			} else {
				appendReplacingInvalid(&b, run)
			}
			i = end
		default:
			e := body[i+1]
			if e != 'u' {
				b.WriteByte(unescaped[e])
				i += 2
				continue
			}
			r := hex4(body[i+2 : i+6])
			if utf16.IsSurrogate(r) {
				if i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
					if pair := utf16.DecodeRune(r, hex4(body[i+8:i+12])); pair != utf8.RuneError {
						b.WriteRune(pair)
						i += 12
						continue
					}
				}
				switch {
				case i == 0 && r >= 0xDC00:
					halves.Low = r
				case i+6 == len(body) && r < 0xDC00:
					halves.High = r
				}
				r = utf8.RuneError
			}
			b.WriteRune(r)
			i += 6
		}
	}
	return b.String(), halves
}

// appendReplacingInvalid appends run to b with each byte of invalid UTF-8 replaced by U+FFFD.
func appendReplacingInvalid(b *strings.Builder, run string) {
	for i := 0; i < len(run); {
		r, size := utf8.DecodeRuneInString(run[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(run[i : i+size])
		}
		i += size
	}
}

var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func hex4(h string) rune {
	var r rune
	for i := 0; i < 4; i++ {
		c := h[i]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
