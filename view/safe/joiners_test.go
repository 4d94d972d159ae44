package safe_test

import (
	"strings"
	"testing"

	. "github.com/phasechat/phasechat/view/safe"
)

// realWords are words as their scripts spell them, each holding a character that is invisible
// on its own: the screen must draw them as they are.
var realWords = []struct{ script, word string }{
	{"persian-zwnj", "می\u200cخواهم"},
	{"persian-plural-zwnj", "کتاب\u200cها"},
	{"persian-zwnj-after-vowel-sign", "نمیَ\u200cدانم"},
	{"persian-zwnj-word-final", "خانه\u200c، باغ"},
	{"urdu-zwnj", "ہے\u200cکہ"},
	{"arabic-zwj", "ه\u200dا"},
	{"syriac-zwnj", "ܫܠܡ\u200cܐ"},
	{"devanagari-zwj-half-form", "क्\u200dष"},
	{"devanagari-zwnj-explicit-virama", "क्\u200cष"},
	{"bengali-zwj-ya-phala", "র\u200d্য"},
	{"gujarati-zwnj", "ક્\u200cષ"},
	{"kannada-zwj", "ರ್\u200dಯ"},
	{"malayalam-old-chillu", "അവന്\u200d വന്നു"},
	{"sinhala-zwj-sri", "ශ්\u200dරී"},
	{"tamil-zwnj", "க்\u200cஷ"},
	{"hebrew-rlm-after-word", "שלום\u200f!"},
	{"hebrew-rlm-before-word", "\u200fעברית"},
	{"hebrew-lrm-before-word", "הגרסה \u200eשל"},
	{"arabic-letter-mark", "مرحبا\u061c"},
	{"german-soft-hyphen", "Silben\u00adtrennung"},
	{"english-soft-hyphens", "hy\u00adphen\u00ada\u00adtion"},
	{"russian-soft-hyphen", "пере\u00adнос"},
	{"emoji-zwj", "👩\u200d💻"},
}

func TestRealWordsKeepTheirJoiners(t *testing.T) {
	for _, w := range realWords {
		t.Run(w.script, func(t *testing.T) {
			for _, in := range []string{w.word, "« " + w.word + " »\n", w.word + " " + w.word} {
				if got := Text(in); got != in {
					t.Errorf("Text(%q) = %q, want it unchanged", in, got)
				}
				if err := CheckClean(in); err != nil {
					t.Errorf("CheckClean(%q) = %v", in, err)
				}
				if got := feed(t, bytesOf(in)); got != in {
					t.Errorf("streamed byte by byte %q = %q, want it unchanged", in, got)
				}
			}
		})
	}
}

func TestJoinersOutsideWordsAreShown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"zwnj-between-latin", "pay\u200cpal", "pay<U+200C>pal"},
		{"zwj-between-latin", "pay\u200dpal", "pay<U+200D>pal"},
		{"zwnj-mixed-scripts", "ب\u200cx", "ب<U+200C>x"},
		{"zwnj-indic-into-arabic", "क\u200cب", "क<U+200C>ب"},
		{"zwnj-run", "می\u200c\u200cخواهم", "می<U+200C><U+200C>خواهم"},
		{"zwnj-at-start", "\u200cخواهم", "<U+200C>خواهم"},
		{"zwnj-after-space", "ب \u200cب", "ب <U+200C>ب"},
		{"rlm-between-latin", "invoice\u200ftxt", "invoice<U+200F>txt"},
		{"rlm-alone", "\u200f", "<U+200F>"},
		{"rlm-run", "שלום\u200f\u200f!", "שלום<U+200F><U+200F>!"},
		{"rlm-beside-override", "שלום\u200f\u202eexe", "שלום<U+200F><U+202E>exe"},
		{"lrm-beside-isolate", "\u2067\u200eא", "<U+2067><U+200E>א"},
		{"override-in-hebrew", "א\u202eב", "א<U+202E>ב"},
		{"soft-hyphen-alone", "\u00ad", "<U+00AD>"},
		{"soft-hyphen-before-space", "rm\u00ad -rf", "rm<U+00AD> -rf"},
		{"soft-hyphen-run", "pass\u00ad\u00adword", "pass<U+00AD><U+00AD>word"},
		{"soft-hyphen-after-digit", "1\u00ad2", "1<U+00AD>2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := feed(t, bytesOf(tc.in)); got != tc.want {
				t.Errorf("streamed byte by byte %q = %q, want %q", tc.in, got, tc.want)
			}
			if got := Text(tc.want); got != tc.want {
				t.Errorf("not idempotent: Text(%q) = %q", tc.want, got)
			}
		})
	}
}

func TestStreamHoldsAWordJoinerUntilTheNextRune(t *testing.T) {
	var s Stream
	s.Append("می\u200c")
	if s.Pending() == 0 {
		t.Fatalf("a ZWNJ at the end of a delta was decided before the next rune: %q", s.String())
	}
	s.Append("خواهم")
	if got := s.Finish(); got != "می\u200cخواهم" {
		t.Errorf("Finish() = %q", got)
	}
	if strings.Contains(s.String(), "<U+") {
		t.Errorf("String() = %q holds a marker", s.String())
	}
}
