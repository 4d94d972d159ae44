package safe

import (
	"unicode"
	"unicode/utf8"
)

// Some scripts spell words with characters that are invisible on their own. Such a character
// passes unchanged only where it stands inside a word of a script that uses it, so it is part
// of the spelling there and cannot hide or reorder text; elsewhere, and in a run of two or more
// of them, it is shown:
//
//   - ZERO WIDTH NON-JOINER U+200C and ZERO WIDTH JOINER U+200D after a letter (or mark) of a
//     joining script and before another of the same script or the end of the word (a visible
//     character that is not a letter, or the end of the text): Arabic (Persian می‌خواهم, Urdu),
//     Syriac, N'Ko, Mongolian and the Indic scripts (Devanagari क्‍ष, Bengali, Gurmukhi, Gujarati,
//     Oriya, Tamil, Telugu, Kannada, Malayalam's word-final chillu ന്‍, Sinhala). A combining mark
//     of no script of its own (an Arabic vowel sign) before the joiner counts as its letter's.
//     A ZWJ inside an emoji sequence follows emoji.go.
//   - LEFT-TO-RIGHT MARK U+200E, RIGHT-TO-LEFT MARK U+200F and ARABIC LETTER MARK U+061C next to
//     a letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
//     Mandaic), with no other invisible character on either side. A mark only sets the direction
//     of the neutral characters next to it; the overrides and isolates that reorder whole runs
//     (U+202A–U+202E, U+2066–U+2069) are always shown.
//   - SOFT HYPHEN U+00AD between two letters (or marks) of any script: a hyphenation point.
//
// Every decision reads at most two code points back and one forward, within the bounds of
// emoji.go's ([maxContext], [maxLookahead]).

const (
	softHyphen = 0x00ad
	arabicMark = 0x061c
	zwnj       = 0x200c
	lrm        = 0x200e
	rlm        = 0x200f
)

// joiningScripts spell words with ZWNJ and ZWJ.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
}

// rightToLeftScripts are written right to left, where LRM, RLM and ALM place neutrals.
var rightToLeftScripts = []*unicode.RangeTable{
	unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko,
	unicode.Samaritan, unicode.Mandaic,
}

// isWordJoiner reports whether r is a rune that [wordVerdict] may let through.
func isWordJoiner(r rune) bool {
	return r == softHyphen || r == arabicMark || (zwnj <= r && r <= rlm)
}

// wordVerdict decides the word joiner r, size bytes at s[i:], from the code points around it.
// When final is false, s may still grow, and a decision that needs the next rune is undecided.
func wordVerdict(s string, i int, r rune, size int, final bool) verdict {
	prev, hasPrev := prevLetter(s[:i])
	joins := scriptOf(prev, joiningScripts)
	switch { // what the text before decides alone, without waiting for the next rune
	case (r == zwnj || r == zwj) && (!hasPrev || joins == nil),
		r == softHyphen && (!hasPrev || !isLetter(prev)),
		hasPrev && !visible(prev):
		return flagIt
	}
	next, ok := nextRune(s[i+size:], final)
	if !ok {
		return undecided
	}
	hasNext := i+size < len(s)
	var keep bool
	switch r {
	case zwnj, zwj:
		wordEnds := !hasNext || (visible(next) && !isLetter(next))
		keep = wordEnds || scriptOf(next, joiningScripts) == joins
	case softHyphen:
		keep = hasNext && isLetter(next)
	default: // a directional mark
		keep = (!hasNext || visible(next)) &&
			(scriptOf(prev, rightToLeftScripts) != nil || scriptOf(next, rightToLeftScripts) != nil)
	}
	if keep {
		return keepIt
	}
	return flagIt
}

// prevLetter returns the code point before the end of s that a word joiner attaches to: the
// last one, or the one before it when the last is a combining mark of no script of its own.
func prevLetter(s string) (rune, bool) {
	r, n := utf8.DecodeLastRuneInString(s)
	if n == 0 {
		return 0, false
	}
	if unicode.Is(unicode.Inherited, r) && unicode.IsMark(r) {
		if base, m := utf8.DecodeLastRuneInString(s[:len(s)-n]); m > 0 && isLetter(base) {
			return base, true
		}
	}
	return r, true
}

func isLetter(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// visible reports whether r is drawn: a safe rune, and not itself invisible.
func visible(r rune) bool {
	return r != utf8.RuneError && classify(r, utf8.RuneLen(r)) == safeRune
}

// scriptOf returns which of tables r is a letter or mark of, or nil.
func scriptOf(r rune, tables []*unicode.RangeTable) *unicode.RangeTable {
	if !isLetter(r) {
		return nil
	}
	for _, t := range tables {
		if unicode.Is(t, r) {
			return t
		}
	}
	return nil
}
