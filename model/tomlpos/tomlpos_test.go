package tomlpos

import (
	"slices"
	"testing"
)

func TestLine(t *testing.T) {
	text := `# a comment with [brackets] and k = v
default = "p" # trailing comment
[provider.p]
base_url = "http://x#not-a-comment"
headers = { "X-Key" = "v", b = 2 }

[[servers]]
name = "s"
"quoted.key" = 1
a . b = 3
`
	x := New(text)
	for _, tc := range []struct {
		key  []string
		want int
	}{
		{[]string{"default"}, 2},
		{[]string{"provider"}, 3},
		{[]string{"provider", "p"}, 3},
		{[]string{"provider", "p", "base_url"}, 4},
		{[]string{"provider", "p", "headers", "X-Key"}, 5},
		{[]string{"provider", "p", "headers", "b"}, 5},
		{[]string{"provider", "p", "modles"}, 3}, // not written: its table's line
		{[]string{"servers", "name"}, 8},
		{[]string{"servers", "quoted.key"}, 9},
		{[]string{"servers", "a", "b"}, 10},
		{[]string{"nowhere"}, 0},
	} {
		if got := x.Line(tc.key); got != tc.want {
			t.Errorf("Line(%q) = %d, want %d", tc.key, got, tc.want)
		}
	}
}

func TestSplitKey(t *testing.T) {
	for in, want := range map[string][]string{
		"a.b":         {"a", "b"},
		` a . "b.c" `: {"a", "b.c"},
		`'x y'.z`:     {"x y", "z"},
		"mcp.notes":   {"mcp", "notes"},
	} {
		if got := SplitKey(in); !slices.Equal(got, want) {
			t.Errorf("SplitKey(%q) = %q, want %q", in, got, want)
		}
	}
}
