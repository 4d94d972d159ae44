package safe

import (
	"strings"
	"unicode/utf8"
)

// Text returns s made safe for a terminal: every rune a terminal would act on, or that a reader
// could not see, is replaced by a visible stand-in; '\n' and '\t' pass unchanged.
//
//   - C0 controls U+0000–U+001F other than '\n' and '\t' become the Control Picture U+2400+c
//     (ESC -> ␛, BEL -> ␇, CR -> ␍, BS -> ␈, NUL -> ␀); DEL U+007F becomes ␡ (U+2421).
//     Only the introducer byte is neutralised: "\x1b[31m" becomes "␛[31m", so a sequence
//     split anywhere is harmless.
//   - These runes become the text <U+XXXX> (uppercase hex, at least four digits):
//     C1 controls U+0080–U+009F (as UTF-8 runes; U+009B is an 8-bit CSI);
//     soft hyphen U+00AD; bidi controls U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069;
//     zero-width and invisible format characters U+180E, U+200B–U+200D and the whole
//     U+2060–U+206F block (word joiner, invisible operators, isolates, deprecated format
//     controls); U+FEFF; line and paragraph separators U+2028, U+2029 (some renderers break lines
//     on them, terminals do not, so they are shown rather than guessed at); interlinear
//     annotations U+FFF9–U+FFFB; tag characters U+E0000–U+E007F (invisible "ASCII smuggling");
//     the variation selectors U+FE0E, U+FE0F.
//   - Exceptions, where such a character is part of what is written and cannot hide or reorder
//     text: U+200D, U+FE0E, U+FE0F and tag characters inside an emoji sequence (👨‍👩‍👧, 🏳️‍🌈, 1️⃣,
//     🏴󠁧󠁢󠁳󠁣󠁴󠁿; emoji.go), and ZWNJ, ZWJ, LRM, RLM, ALM and the soft hyphen inside a word of a
//     script that spells with them (Persian می‌خواهم, Devanagari क्‍ष, Hebrew with RLM, a German
//     Silben­trennung; joiners.go) pass unchanged. Anywhere else, and in a run of two or more,
//     they are shown.
//   - Each byte that does not begin a valid UTF-8 encoding becomes one U+FFFD: decoding follows
//     [utf8.DecodeRuneInString], so a truncated or overlong sequence yields one U+FFFD per byte,
//     not one per maximal subpart. A lone 0x9B (raw 8-bit CSI) is such a byte.
//
// Invariant for callers: sanitise the ACCUMULATED text of a stream (or feed it to a [Stream]),
// never each delta on its own. Per-delta output is safe but wrong: a rune split across deltas
// ("\xc3" + "\xa9", é) shows as two U+FFFD, an encoded C1 CSI ("\xc2" + "\x9b") as two U+FFFD
// instead of <U+009B>. And a shortcut that let an unfinished rune's bytes through raw, to be
// completed by the next delta, would hand the terminal a real C1 CSI. Deltas decoded from JSON
// are whole runes, but raw byte sources (a tool's output read in chunks) split them anywhere.
//
// Text(s) == s exactly when [CheckClean](s) == nil, and then Text does not allocate. Text is
// idempotent (a stand-in never completes an emoji sequence), and its cost is O(len(s)).
func Text(s string) string { return sanitize(s, textPass) }

// Line is [Text] for places that must stay on one line (tool names, the status line, card
// headers): '\n' becomes ⏎ (U+23CE) so a joined line still shows where it broke, and '\t'
// becomes one space so the width is what the layout measured. The result holds no '\n' and no
// '\t'; otherwise it is exactly Text.
func Line(s string) string { return sanitize(s, linePass) }

// textPass and linePass say which ASCII bytes pass unchanged: printable ASCII, plus '\n' and
// '\t' for Text only.
var textPass, linePass = asciiPass(true), asciiPass(false)

func asciiPass(newlineAndTab bool) *[utf8.RuneSelf]bool {
	var t [utf8.RuneSelf]bool
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\n'], t['\t'] = newlineAndTab, newlineAndTab
	return &t
}

func sanitize(s string, pass *[utf8.RuneSelf]bool) string {
	i, _ := scan(s, 0, pass, true)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	writeSafe(&b, s, i, pass, true)
	return b.String()
}

// writeSafe writes the sanitised form of s[from:] to b, reading s[:from] only as the context
// of an emoji sequence, and returns where it stopped: len(s), or when final is false the start
// of a rune that cannot be decided until more text follows. With final, a trailing incomplete
// UTF-8 sequence becomes U+FFFD per byte.
func writeSafe(b *strings.Builder, s string, from int, pass *[utf8.RuneSelf]bool, final bool) int {
	for from < len(s) {
		i, stop := scan(s, from, pass, final)
		b.WriteString(s[from:i])
		if i == len(s) || stop {
			return i
		}
		r, size := decode(s[i:])
		writeStandIn(b, r, size)
		from = i + size
	}
	return from
}

// scan returns the byte offset of the first byte or rune in s[from:] that must be replaced, or
// len(s) when there is none. When final is false it also stops, with undecided true, at a rune
// that the bytes present cannot decide: an unfinished UTF-8 encoding or a sequence joiner whose
// emoji sequence may still be completed.
func scan(s string, from int, pass *[utf8.RuneSelf]bool, final bool) (i int, undecidedAt bool) {
	for i = from; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if !pass[c] {
				return i, false
			}
			i++
			continue
		}
		if !final && !utf8.FullRuneInString(s[i:]) {
			return i, true
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if classify(r, size) == safeRune {
			i += size
			continue
		}
		if !isSequenceJoiner(r) {
			return i, false
		}
		switch v, keep := contextVerdict(s, i, r, size, final); v {
		case keepIt:
			i += keep
		case undecided:
			return i, true
		default:
			return i, false
		}
	}
	return len(s), false
}

// decode is utf8.DecodeRuneInString with ASCII inlined; an invalid byte is (RuneError, 1).
func decode(s string) (rune, int) {
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(s)
}

// writeStandIn writes the visible stand-in for the unsafe rune r, decoded with width size.
func writeStandIn(b *strings.Builder, r rune, size int) {
	switch {
	case r == '\n':
		b.WriteString("⏎")
	case r == '\t':
		b.WriteByte(' ')
	case r < 0x20:
		b.WriteRune(0x2400 + r)
	case r == 0x7f:
		b.WriteRune(0x2421)
	case r == utf8.RuneError && size == 1:
		b.WriteRune(utf8.RuneError)
	default:
		writeCodePoint(b, r)
	}
}

// writeCodePoint writes r as <U+XXXX>: uppercase hex, at least four digits.
func writeCodePoint(b *strings.Builder, r rune) {
	const hexDigits = "0123456789ABCDEF"
	var buf [12]byte
	n := len(buf)
	buf[n-1] = '>'
	n--
	for digits := 0; digits < 4 || r > 0; digits++ {
		n--
		buf[n] = hexDigits[r&0xf]
		r >>= 4
	}
	n -= 3
	copy(buf[n:], "<U+")
	b.Write(buf[n:])
}
