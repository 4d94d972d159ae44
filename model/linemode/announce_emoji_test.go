package linemode

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/safe/safetest"
)

// A reply's emoji sequences, cut across deltas in the middle of the sequence, are announced
// whole; a joiner inside a word and tag characters hiding text are still shown.
func TestAnnounceEmojiSequencesWhole(t *testing.T) {
	family := "👨\u200d👩\u200d👧\u200d👦"
	scotland := "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
	deltas := []string{
		"Family 👨\u200d", "👩\u200d👧\u200d👦, coder 👩🏽\u200d", "💻, flag 🏴\U000E0067\U000E0062",
		"\U000E0073\U000E0063\U000E0074\U000E007F, key 1", "\ufe0f\u20e3; but pay\u200dpal and ok\U000E0072\U000E006D.\n",
	}
	f := &fake{}
	a := NewAnnouncer(f.st, f.follow())
	var out []string
	f.submit()
	out = append(out, a.announce(f)...)
	for _, d := range deltas {
		f.text(d)
		out = append(out, a.announce(f)...)
	}
	f.end(phase.Complete)
	out = append(out, a.announce(f)...)
	all := strings.Join(out, "\n")
	for _, want := range []string{family, "👩🏽\u200d💻", scotland, "1\ufe0f\u20e3", "pay<U+200D>pal", "ok<U+E0072><U+E006D>."} {
		if !strings.Contains(all, want) {
			t.Errorf("the announcement lacks %q:\n%s", want, all)
		}
	}
	if err := safetest.CheckClean(all); err != nil {
		t.Errorf("unsafe output: %v\n%s", err, all)
	}
}
