package rows

import "testing"

func TestTrimStyledEnd(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain padding", "  text   ", "  text"},
		{"styled padding cells", "\x1b[38;5;252mhi\x1b[m\x1b[38;5;252m \x1b[m\x1b[38;5;252m \x1b[m", "\x1b[38;5;252mhi\x1b[m"},
		{"all padding", "\x1b[38;5;252m \x1b[m\x1b[38;5;252m \x1b[m", ""},
		{"open style closed", "\x1b[1mbold   ", "\x1b[1mbold\x1b[m"},
		{"wide last rune", "中文  ", "中文"},
		{"style reset before end", "\x1b[1mb\x1b[0m c  ", "\x1b[1mb\x1b[0m c"},
	}
	for _, tt := range tests {
		if got := TrimStyledEnd(tt.in); got != tt.want {
			t.Errorf("%s: got %q want %q", tt.name, got, tt.want)
		}
	}
}

func TestBalanceSGR(t *testing.T) {
	got := balanceSGR([]string{"\x1b[1ma", "b\x1b[m c", "d"})
	want := []string{"\x1b[1ma\x1b[m", "\x1b[1mb\x1b[m c", "d"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %q want %q", i, got[i], want[i])
		}
	}
}
