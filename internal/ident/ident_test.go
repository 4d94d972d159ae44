package ident

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, c := range []struct {
		name string
		max  int
		also string
		ok   bool
	}{
		{"read_file", 64, "_-", true},
		{"Read-File2", 64, "_-", true},
		{"", 64, "_-", false},
		{strings.Repeat("a", 64), 64, "_-", true},
		{strings.Repeat("a", 65), 64, "_-", false},
		{"gpt.4o", 64, "_-", false},
		{"gpt.4o", 64, "._-", true},
		{"a b", 64, "_-", false},
		{"ünï", 64, "_-", false},
		{"a/b", 64, "_-", false},
		{"x", 0, "", false},
	} {
		if got := Valid(c.name, c.max, c.also); got != c.ok {
			t.Errorf("Valid(%q, %d, %q) = %v, want %v", c.name, c.max, c.also, got, c.ok)
		}
	}
}
