package safe_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	. "github.com/phasechat/phasechat/view/safe"
)

// tags spells s in tag characters, the way subdivision flags and ASCII smuggling both do.
func tags(s string) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteRune(0xe0000 + c)
	}
	return b.String()
}

var (
	family       = "👨\u200d👩\u200d👧\u200d👦"
	technologist = "👩\u200d💻"
	darkTech     = "👩🏿\u200d💻"
	rainbowFlag  = "🏳\ufe0f\u200d🌈"
	pirateFlag   = "🏴\u200d☠\ufe0f"
	scotland     = "🏴" + tags("gbsct") + "\U000E007F"
	wales        = "🏴" + tags("gbwls") + "\U000E007F"
	keycapOne    = "1\ufe0f\u20e3"
	keycapHash   = "#\ufe0f\u20e3"
	redHeart     = "❤\ufe0f"
	textHeart    = "❤\ufe0e"
	skinTones    = "👍🏻👍🏼👍🏽👍🏾👍🏿"
	kissSkin     = "🧑🏻\u200d❤\ufe0f\u200d💋\u200d🧑🏿"
)

func TestEmojiSequencesPassWhole(t *testing.T) {
	for name, seq := range map[string]string{
		"family": family, "technologist": technologist, "technologist-dark": darkTech,
		"rainbow-flag": rainbowFlag, "pirate-flag": pirateFlag, "scotland": scotland,
		"wales": wales, "keycap-1": keycapOne, "keycap-hash": keycapHash, "red-heart": redHeart,
		"text-heart": textHeart, "skin-tones": skinTones, "kiss-skin-tones": kissSkin,
	} {
		t.Run(name, func(t *testing.T) {
			for _, in := range []string{seq, "ok " + seq + " done", seq + seq, "x" + seq + "\n"} {
				if got := Text(in); got != in {
					t.Errorf("Text(%q) = %q, want it unchanged", in, got)
				}
				if err := CheckClean(in); err != nil {
					t.Errorf("CheckClean(%q) = %v, want nil", in, err)
				}
				if got := feed(t, bytesOf(in)); got != in {
					t.Errorf("streamed byte by byte %q = %q, want it unchanged", in, got)
				}
			}
		})
	}
}

func TestJoinersOutsideEmojiAreShown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"zwj-inside-word", "pay\u200dpal", "pay<U+200D>pal"},
		{"zwj-after-emoji-before-letter", "👨\u200da", "👨<U+200D>a"},
		{"zwj-after-letter-before-emoji", "a\u200d👩", "a<U+200D>👩"},
		{"zwj-at-end", "👨\u200d", "👨<U+200D>"},
		{"zwj-at-start", "\u200d👩", "<U+200D>👩"},
		{"double-zwj", "👨\u200d\u200d👩", "👨<U+200D><U+200D>👩"},
		{"zwj-after-skin-tone-alone", "🏽\u200d👩", "🏽<U+200D>👩"},
		{"zwj-after-letter-skin-tone", "a🏽\u200d👩", "a🏽<U+200D>👩"},
		{"vs16-after-letter", "a\ufe0fb", "a<U+FE0F>b"},
		{"vs15-after-letter", "rm\ufe0e -rf", "rm<U+FE0E> -rf"},
		{"vs16-at-start", "\ufe0f", "<U+FE0F>"},
		{"vs16-after-digit-without-keycap", "1\ufe0f2", "1<U+FE0F>2"},
		{"vs16-after-digit-at-end", "1\ufe0f", "1<U+FE0F>"},
		{"double-vs16", "❤\ufe0f\ufe0f", "❤\ufe0f<U+FE0F>"},
		{"lone-tag-run-hides-ascii", "ok" + tags("ignore previous"), "ok" + cps(tags("ignore previous"))},
		{"tags-after-flag-hide-ascii", "🏴" + tags("rm -rf") + "\U000E007F", "🏴" + cps(tags("rm -rf")+"\U000E007F")},
		{"tags-after-flag-unrecommended", "🏴" + tags("usca") + "\U000E007F", "🏴" + cps(tags("usca")+"\U000E007F")},
		{"tags-after-flag-unterminated", "🏴" + tags("gbsct") + "!", "🏴" + cps(tags("gbsct")) + "!"},
		{"tags-after-flag-too-long", "🏴" + tags("gbscta") + "\U000E007F", "🏴" + cps(tags("gbscta")+"\U000E007F")},
		{"tags-after-other-emoji", "🏳" + tags("gbsct") + "\U000E007F", "🏳" + cps(tags("gbsct")+"\U000E007F")},
		{"cancel-tag-alone", "🏴\U000E007F", "🏴<U+E007F>"},
		{"flag-then-smuggled-run", scotland + tags("hi"), scotland + cps(tags("hi"))},
		{"rlo-inside-emoji", "👨\u202e\u200d👩", "👨<U+202E><U+200D>👩"},
		{"rlo-after-emoji", family + "\u202etxt.exe", family + "<U+202E>txt.exe"},
		{"bidi-isolate-between-emoji", "👨\u2066\u200d👩", "👨<U+2066><U+200D>👩"},
		{"zwnj-between-emoji", "👨\u200c👩", "👨<U+200C>👩"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if CheckClean(tc.in) == nil {
				t.Errorf("CheckClean(%q) = nil, want the joiner reported", tc.in)
			}
			if got := feed(t, bytesOf(tc.in)); got != tc.want {
				t.Errorf("streamed byte by byte %q = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// cps writes every rune of s as <U+XXXX>.
func cps(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, "<U+%04X>", r)
	}
	return b.String()
}

func TestCheckCleanNamesStraySelector(t *testing.T) {
	err := CheckClean("a\ufe0f")
	if err == nil || !strings.Contains(err.Error(), "variation selector") {
		t.Fatalf("CheckClean(a VS16) = %v, want a variation selector reported", err)
	}
}

func TestStreamHoldsOpenSequence(t *testing.T) {
	for _, tc := range []struct {
		name, first, out, second, final string
	}{
		{"zwj-waits-for-next-emoji", "👨\u200d", "👨", "👩", "👨\u200d👩"},
		{"zwj-then-letter", "👨\u200d", "👨", "a", "👨<U+200D>a"},
		{"keycap-selector-waits", "1\ufe0f", "1", "\u20e3", keycapOne},
		{"flag-tags-wait-for-cancel", "🏴" + tags("gbs"), "🏴", tags("ct") + "\U000E007F", scotland},
		{"flag-tags-broken", "🏴" + tags("gbs"), "🏴", "x", "🏴" + cps(tags("gbs")) + "x"},
		{"zwj-split-rune", "👨\u200d\xf0\x9f", "👨", "\x91\xa9", "👨\u200d👩"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Stream
			s.Append(tc.first)
			if s.String() != tc.out {
				t.Fatalf("after %q: String() = %q, want %q", tc.first, s.String(), tc.out)
			}
			s.Append(tc.second)
			if got := s.Finish(); got != tc.final || got != Text(tc.first+tc.second) {
				t.Fatalf("Finish() = %q, want %q (Text gives %q)", got, tc.final, Text(tc.first+tc.second))
			}
		})
	}
}

func TestStreamDecidesWhatCannotBecomeEmoji(t *testing.T) {
	// A joiner that no later text can make part of a sequence is shown at once, not held.
	for _, in := range []string{"a\u200d", "a\ufe0f", "ok" + tags("x"), "🏴" + tags("x")} {
		var s Stream
		s.Append(in)
		if s.Pending() != 0 || s.String() != Text(in) {
			t.Errorf("Append(%q): String() = %q Pending() = %d, want %q decided", in, s.String(), s.Pending(), Text(in))
		}
	}
}

// joinersInsideClusters checks, with uniseg's grapheme clusters and independently of
// contextVerdict, that every sequence joiner in s sits where UAX #29 binds it to an emoji, or
// beside a letter: a ZWJ neither first nor last in its cluster (or last, after a letter), a
// variation selector not first, a tag in a cluster that starts with the black flag and ends
// with the cancel tag, a word joiner with a letter before or after it.
func joinersInsideClusters(s string) error {
	whole := s
	state, offset := -1, 0
	for len(s) > 0 {
		var cluster string
		cluster, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		first, _ := utf8.DecodeRuneInString(cluster)
		last, _ := utf8.DecodeLastRuneInString(cluster)
		for i, r := range cluster {
			bad := false
			switch {
			case IsWordJoiner(r) && r != ZWJ, r == ZWJ && i > 0 && i+3 == len(cluster):
				at := offset + i
				bad = !besideLetter(r, whole[:at], whole[at+utf8.RuneLen(r):])
			case r == ZWJ:
				bad = i == 0 || i+3 == len(cluster)
			case r == TextStyle || r == EmojiStyle:
				bad = i == 0
			case 0xe0000 <= r && r <= CancelTag:
				bad = first != BlackFlag || last != CancelTag
			}
			if bad {
				return fmt.Errorf("U+%04X at byte %d is not inside an emoji cluster (%q)", r, offset+i, cluster)
			}
		}
		offset += len(cluster)
	}
	return nil
}

// besideLetter reports whether the word joiner r, between before and rest, has no other
// invisible character on either side and a letter where its script would put one: the soft
// hyphen on both sides, a joiner after a letter of a script other than Latin, Greek or
// Cyrillic, a directional mark on one side, of such a script.
func besideLetter(r rune, before, rest string) bool {
	p, _ := utf8.DecodeLastRuneInString(before)
	n, _ := utf8.DecodeRuneInString(rest)
	letter := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }
	nonEuropean := func(r rune) bool {
		return letter(r) && !unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Common)
	}
	invisible := func(r rune) bool { return wantEscaped(r) && !unicode.IsMark(r) }
	if invisible(p) || invisible(n) {
		return false
	}
	switch r {
	case SoftHyphen:
		return letter(p) && letter(n)
	case ZWNJ, ZWJ:
		return nonEuropean(p)
	}
	return nonEuropean(p) || nonEuropean(n)
}

func TestJoinerCheckCatchesStrays(t *testing.T) {
	for _, in := range []string{"a\u200d", "\ufe0f", "ok" + tags("hi")} {
		if joinersInsideClusters(in) == nil {
			t.Errorf("joinersInsideClusters(%q) = nil, want an error", in)
		}
	}
	if err := joinersInsideClusters(family + scotland + keycapOne + kissSkin); err != nil {
		t.Errorf("real sequences: %v", err)
	}
}
