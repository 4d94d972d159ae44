package safe

import (
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Emoji sequences join their parts with characters that are invisible on their own: ZERO WIDTH
// JOINER U+200D (👨‍👩‍👧), the variation selectors U+FE0E/U+FE0F (❤️, 1️⃣) and tag characters
// U+E0020–U+E007F (🏴󠁧󠁢󠁳󠁣󠁴󠁿). Such a joiner passes unchanged only where it stands inside one
// of these sequences, so it renders as part of one emoji and cannot hide or reorder text:
//
//   - U+200D between two Extended_Pictographic code points, the first optionally followed by
//     U+FE0F or a skin-tone modifier U+1F3FB–U+1F3FF: one grapheme cluster by rule GB11 of
//     UAX #29 (ExtPict Extend* ZWJ × ExtPict), with Extend limited to what an emoji uses.
//   - U+FE0E or U+FE0F right after an Extended_Pictographic code point, or right after one of
//     0–9, # and * when U+20E3 COMBINING ENCLOSING KEYCAP follows (1️⃣).
//   - A tag run right after U+1F3F4 WAVING BLACK FLAG that spells one of the recommended
//     subdivision flags (England, Scotland, Wales) and ends in U+E007F CANCEL TAG. Any other
//     run is flagged whole: a well-formed but unrecommended tag sequence renders as a bare black
//     flag on most terminals and would carry invisible letters.
//
// Every decision reads at most two code points back and [maxLookahead] bytes forward, so a
// [Stream] needs to hold back only that much, and the cost of [Text] stays O(len(s)).

const (
	zwj            = 0x200d
	textStyle      = 0xfe0e
	emojiStyle     = 0xfe0f
	enclosingKeycp = 0x20e3
	blackFlag      = 0x1f3f4
	cancelTag      = 0xe007f
)

// subdivisionFlags are the tag payloads (without U+E007F) of the recommended flag sequences.
var subdivisionFlags = []string{"gbeng", "gbsct", "gbwls"}

// maxTagPayload is the longest entry of subdivisionFlags.
const maxTagPayload = 5

// maxLookahead bounds the bytes a decision reads past the joiner's own start: a tag payload
// plus its cancel tag, each tag four bytes.
const maxLookahead = (maxTagPayload + 1) * 4

// maxContext is how many bytes before a joiner a decision may read: two code points.
const maxContext = 2 * utf8.UTFMax

// verdict is the outcome of deciding a joiner in context.
type verdict uint8

const (
	flagIt    verdict = iota // replace it with its stand-in
	keepIt                   // part of an emoji sequence: pass unchanged
	undecided                // the text so far ends before the decision can be made
)

// isSequenceJoiner reports whether r is a rune that [contextVerdict] may let through: a joiner
// of emoji sequences (this file) or of words (joiners.go).
func isSequenceJoiner(r rune) bool {
	return r == zwj || r == textStyle || r == emojiStyle || (0xe0020 <= r && r <= cancelTag) || isWordJoiner(r)
}

// contextVerdict decides the sequence joiner r, size bytes at s[i:], from the code points
// before it in s and the bytes after it. keep is how many bytes from i pass unchanged (a whole
// tag run). When final is false, s may still grow, and a decision that needs bytes past the
// end of s is undecided.
func contextVerdict(s string, i int, r rune, size int, final bool) (v verdict, keep int) {
	switch {
	case r == zwj:
		if v := zwjVerdict(s, i, size, final); v != flagIt {
			return v, size
		}
		return wordVerdict(s, i, r, size, final), size
	case isWordJoiner(r):
		return wordVerdict(s, i, r, size, final), size
	case r == textStyle || r == emojiStyle:
		return selectorVerdict(s, i, size, final), size
	default:
		return tagVerdict(s, i, final)
	}
}

func zwjVerdict(s string, i, size int, final bool) verdict {
	base, n := utf8.DecodeLastRuneInString(s[:i])
	if base == emojiStyle || isSkinTone(base) {
		base, _ = utf8.DecodeLastRuneInString(s[:i-n])
	}
	if !extendedPictographic(base) {
		return flagIt
	}
	next, ok := nextRune(s[i+size:], final)
	if !ok {
		return undecided
	}
	if extendedPictographic(next) {
		return keepIt
	}
	return flagIt
}

func selectorVerdict(s string, i, size int, final bool) verdict {
	base, _ := utf8.DecodeLastRuneInString(s[:i])
	if extendedPictographic(base) {
		return keepIt
	}
	if !isKeycapBase(base) {
		return flagIt
	}
	next, ok := nextRune(s[i+size:], final)
	if !ok {
		return undecided
	}
	if next == enclosingKeycp {
		return keepIt
	}
	return flagIt
}

// tagVerdict decides the tag run starting at s[i:]. Only its first tag can be kept: a tag
// after another tag that was not kept has no black flag before it.
func tagVerdict(s string, i int, final bool) (verdict, int) {
	if before, _ := utf8.DecodeLastRuneInString(s[:i]); before != blackFlag {
		return flagIt, 0
	}
	var payload [maxTagPayload]byte
	n := 0
	for j := i; ; {
		r, ok := nextRune(s[j:], final)
		if !ok {
			if couldStartFlag(payload[:n]) {
				return undecided, 0
			}
			return flagIt, 0
		}
		switch {
		case r == cancelTag:
			if isFlagPayload(payload[:n]) {
				return keepIt, j + 4 - i
			}
			return flagIt, 0
		case 0xe0020 <= r && r < cancelTag && n < maxTagPayload:
			payload[n] = byte(r - 0xe0000)
			n++
			if !couldStartFlag(payload[:n]) {
				return flagIt, 0
			}
			j += 4
		default:
			return flagIt, 0
		}
	}
}

func couldStartFlag(p []byte) bool {
	for _, f := range subdivisionFlags {
		if len(p) <= len(f) && f[:len(p)] == string(p) {
			return true
		}
	}
	return false
}

func isFlagPayload(p []byte) bool {
	for _, f := range subdivisionFlags {
		if f == string(p) {
			return true
		}
	}
	return false
}

// nextRune decodes the first rune of s. ok is false when s is empty or holds only the start of
// an encoding and final is false: more text may follow. At the end of a final text it returns
// (utf8.RuneError, true), which no rule accepts.
func nextRune(s string, final bool) (r rune, ok bool) {
	if len(s) == 0 || !utf8.FullRuneInString(s) {
		return utf8.RuneError, final
	}
	r, _ = utf8.DecodeRuneInString(s)
	return r, true
}

func isSkinTone(r rune) bool { return 0x1f3fb <= r && r <= 0x1f3ff }

func isKeycapBase(r rune) bool { return r == '#' || r == '*' || ('0' <= r && r <= '9') }

// extendedPictographic reports whether r has the Unicode property Extended_Pictographic, asked
// of uniseg's UAX #29 tables: r ZWJ U+1F600 is one grapheme cluster exactly when it has
// (rule GB11; every other rule either breaks before the ZWJ or after it).
func extendedPictographic(r rune) bool {
	if r < 0xa9 || r == utf8.RuneError {
		return false
	}
	var buf [3 * utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	n += utf8.EncodeRune(buf[n:], zwj)
	n += utf8.EncodeRune(buf[n:], 0x1f600)
	cluster, _, _, _ := uniseg.FirstGraphemeCluster(buf[:n], -1)
	return len(cluster) == n
}
