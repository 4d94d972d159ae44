package view

import (
	"testing"
)

func TestCleanStyled(t *testing.T) {
	tests := []struct {
		name, in, colour, mono, plain string
	}{
		{"clean text", "plain 中文", "plain 中文", "plain 中文", "plain 中文"},
		{"sgr kept in colour only", "\x1b[38;5;252mhi\x1b[m", "\x1b[38;5;252mhi\x1b[m", "hi\x1b[m", "hi"},
		{"sgr with colon subparams", "\x1b[4:3mu\x1b[0m", "\x1b[4:3mu\x1b[0m", "\x1b[4:3mu\x1b[0m", "u"},
		{"attributes kept around colours", "\x1b[1;38;2;1;2;3;48;5;17;7mx\x1b[22;39;49m", "\x1b[1;38;2;1;2;3;48;5;17;7mx\x1b[22;39;49m", "\x1b[1;7mx\x1b[22m", "x"},
		{"basic and bright colours dropped", "\x1b[31;42;91;103;3mi\x1b[23m", "\x1b[31;42;91;103;3mi\x1b[23m", "\x1b[3mi\x1b[23m", "i"},
		{"colon colours and underline colour dropped", "\x1b[38:2::9:9:9;58:5:1;59;4mu", "\x1b[38:2::9:9:9;58:5:1;59;4mu", "\x1b[4mu", "u"},
		{"reset with colour keeps the reset", "\x1b[0;38;5;1mr", "\x1b[0;38;5;1mr", "\x1b[0mr", "r"},
		{"osc8 link dropped, text kept", "\x1b]8;id=1;https://x\adocs\x1b]8;;\a", "docs", "docs", "docs"},
		{"osc with st", "\x1b]0;title\x1b\\after", "after", "after", "after"},
		{"non-sgr csi dropped", "a\x1b[2Jb\x1b[?1049lc", "abc", "abc", "abc"},
		{"private sgr-like csi dropped", "a\x1b[>4;1mb", "ab", "ab", "ab"},
		{"dcs and apc dropped", "\x1bP+q\x1b\\x\x1b_G\x1b\\y", "xy", "xy", "xy"},
		{"two-byte escape dropped", "a\x1b7b\x1b(Bc", "abc", "abc", "abc"},
		{"unterminated osc runs to end", "a\x1b]8;;https://x", "a", "a", "a"},
		{"lone esc at end", "a\x1b", "a", "a", "a"},
		{"malformed csi keeps the breaking byte as text", "a\x1b[1\x07b", "a␇b", "a␇b", "a␇b"},
		{"controls between sequences sanitised", "\x1b[1mx\x07\x9b\x1b[m", "\x1b[1mx␇\uFFFD\x1b[m", "\x1b[1mx␇\uFFFD\x1b[m", "x␇\uFFFD"},
		{"bidi in text", "a\u202eb", "a<U+202E>b", "a<U+202E>b", "a<U+202E>b"},
	}
	for _, tt := range tests {
		if got := cleanStyled(tt.in, keepSGR); got != tt.colour {
			t.Errorf("%s colour: got %q want %q", tt.name, got, tt.colour)
		}
		if got := cleanStyled(tt.in, keepAttributes); got != tt.mono {
			t.Errorf("%s mono: got %q want %q", tt.name, got, tt.mono)
		}
		if got := cleanStyled(tt.in, keepNone); got != tt.plain {
			t.Errorf("%s plain: got %q want %q", tt.name, got, tt.plain)
		}
	}
}
