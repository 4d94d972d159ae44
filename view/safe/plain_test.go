package safe_test

import (
	. "github.com/phasechat/phasechat/view/safe"

	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/phasechat/phasechat/view/safe/safetest"
)

// drivesTerminal reports the first byte or rune of s a terminal would act on.
func drivesTerminal(s string) (int, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"),
			r < 0x20 && r != '\n' && r != '\t', r == 0x7f, 0x80 <= r && r <= 0x9f:
			return i, true
		}
	}
	return 0, false
}

func TestPlainRemovesWhatDrivesATerminal(t *testing.T) {
	for _, h := range safetest.HostileInputs {
		t.Run(h.Name, func(t *testing.T) {
			out := plain(h.Input)
			if i, bad := drivesTerminal(out); bad {
				t.Errorf("Plain(%q) = %q still holds a control at byte %d", h.Input, out, i)
			}
			if again := plain(out); again != out {
				t.Errorf("not idempotent: Plain(%q) = %q", out, again)
			}
			for cut := range len(h.Input) + 1 {
				var p PlainStream
				p.Append(h.Input[:cut])
				if !strings.HasPrefix(out, p.String()) {
					t.Fatalf("cut at %d: String() = %q is not a prefix of %q", cut, p.String(), out)
				}
				p.Append(h.Input[cut:])
				if got, _ := p.Finish(); got != out {
					t.Fatalf("cut at %d: streamed %q, whole %q", cut, got, out)
				}
				var k PlainStream
				k.Append(h.Input[:cut])
				taken := k.Take()
				k.Append(h.Input[cut:])
				if rest, _ := k.Finish(); taken+rest != out || k.Take() != rest {
					t.Fatalf("cut at %d: taken %q then finished %q, whole %q", cut, taken, rest, out)
				}
			}
		})
	}
}

func TestPlainKeepsTheText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\n\twith tab", "plain text\n\twith tab"},
		{"می\u200cخواهم « שלום\u200f » a\u202eb pay\u200bpal 👩\u200d💻 hy\u00adphen", "می\u200cخواهم « שלום\u200f » a\u202eb pay\u200bpal 👩\u200d💻 hy\u00adphen"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"a\x1b]0;title\x07b", "ab"},
		{"a\x1b]8;;https://x.example/\x1b\\link\x1b]8;;\x1b\\b", "alinkb"},
		{"paste\x1b[201~rm -rf ~\n", "pasterm -rf ~\n"},
		{"a\u009b31mb", "ab"},
		{"a\u009d0;t\u009cb", "ab"},
		{"a\u0085b", "ab"},
		{"one\r\ntwo\b", "one\ntwo"},
		{"bad\xff", "bad\uFFFD"},
		{"a\x1b(Bb", "ab"},
		{"a\x1b7b\x1b8", "ab"},
		{"open\x1b]0;never closed", "open"},
		{"esc\x1b\nline", "esc\nline"},
		{"del\x7f", "del"},
	} {
		if got := plain(tc.in); got != tc.want {
			t.Errorf("Plain(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	clean := "héllo 世界 می\u200cخواهم a\u202eb"
	if n := testing.AllocsPerRun(10, func() { _, _ = Plain(clean) }); n != 0 {
		t.Errorf("Plain(clean) allocates %v times", n)
	}
}

func plain(s string) string { out, _ := Plain(s); return out }

func TestPlainSaysWhatWasRemoved(t *testing.T) {
	if _, n := Plain("ok"); n != 0 {
		t.Errorf("clean text: %d removed", n)
	}
	if out, n := Plain("a\x1b[201~b\x07"); out != "ab" || n != 2 {
		t.Errorf("PlainCount = %q, %d; want \"ab\", 2", out, n)
	}
}

func TestJSONEscapesWhatTheScreenWouldMark(t *testing.T) {
	values := []string{"plain", "a\u202eb\u2066c\u2069", "c1 \u009b31m \u0085", "tag\U000E0041", "del\x7f",
		"zw\u200b", "می\u200cخواهم", "👩\u200d💻", "\x1b[2J"}
	for _, v := range values {
		raw, _ := json.Marshal(map[string]string{"v": v})
		out := JSON(raw)
		if !json.Valid(out) {
			t.Fatalf("JSON(%s) = %s is not valid", raw, out)
		}
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil || back["v"] != v {
			t.Errorf("JSON(%s) = %s decodes to %q, want %q", raw, out, back["v"], v)
		}
		if err := CheckClean(string(out)); err != nil {
			t.Errorf("JSON(%s) = %s: %v", raw, out, err)
		}
	}
	if out := string(JSON([]byte(`{"v":"a` + "\u202e" + `b"}`))); out != `{"v":"a\u202eb"}` {
		t.Errorf("bidi override: %s", out)
	}
	clean := []byte(`{"v":"می` + "\u200c" + `خواهم"}`)
	if out := JSON(clean); &out[0] != &clean[0] {
		t.Errorf("clean JSON was copied: %s", out)
	}
}

// FuzzPlain checks that Plain leaves nothing a terminal acts on, is idempotent, and that a
// PlainStream fed the text in two pieces ends equal to it.
func FuzzPlain(f *testing.F) {
	for _, h := range safetest.HostileInputs {
		f.Add(h.Input, len(h.Input)/2)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		out := plain(s)
		if i, bad := drivesTerminal(out); bad {
			t.Fatalf("Plain(%q) = %q holds a control at byte %d", s, out, i)
		}
		if plain(out) != out {
			t.Fatalf("not idempotent: %q", out)
		}
		cut = min(max(cut, 0), len(s))
		var p PlainStream
		p.Append(s[:cut])
		p.Append(s[cut:])
		if got, _ := p.Finish(); got != out {
			t.Fatalf("cut at %d of %q: streamed %q, whole %q", cut, s, got, out)
		}
	})
}
