package fuzzy

import (
	"reflect"
	"testing"
)

func TestRankOrdersByHowTheQueryMatches(t *testing.T) {
	for _, c := range []struct {
		what  string
		names []string
		query string
		want  []string // the names Rank keeps, best first
	}{
		{"the whole name before a part that starts with it",
			[]string{"fx/text-then-tool", "fx/text"}, "fx/text", []string{"fx/text", "fx/text-then-tool"}},
		{"a part after a slash is a name of its own",
			[]string{"openai/gpt-4o-mini", "gpt-4o"}, "gpt-4o", []string{"gpt-4o", "openai/gpt-4o-mini"}},
		{"a file name without its extension is exact",
			[]string{"docs/readme-old.md", "README.md"}, "readme", []string{"README.md", "docs/readme-old.md"}},
		{"a folder is named without its slash",
			[]string{"model/chat/", "model/"}, "model", []string{"model/", "model/chat/"}},
		{"a prefix before a word start",
			[]string{"claude-sonnet", "sonnet-4"}, "sonnet", []string{"sonnet-4", "claude-sonnet"}},
		{"a word start (after - _ . or a space) before a substring",
			[]string{"personnel", "my notes.md", "old_notes", "a.notes"}, "notes", []string{"my notes.md", "old_notes", "a.notes"}},
		{"a substring before the words of the query",
			[]string{"tool-then-text", "then text"}, "then text", []string{"then text", "tool-then-text"}},
		{"every word before letters in order",
			[]string{"t-h-e-n-t-e-x-t", "text-then-tool"}, "then text", []string{"text-then-tool", "t-h-e-n-t-e-x-t"}},
		{"letters in order (and only those)",
			[]string{"internal/tmux/run.go", "model/chat/turn.go", "mac"}, "mct", []string{"model/chat/turn.go"}},
		{"letters in order, fewer gaps first",
			[]string{"mxxcxxt", "mcxt"}, "mct", []string{"mcxt", "mxxcxxt"}},
		{"letters across path separators",
			[]string{"a/b/c.go", "abc"}, "a/c", []string{"a/b/c.go"}},
		{"case is ignored on both sides",
			[]string{"Makefile", "docs/MAKE.md"}, "mAkE", []string{"docs/MAKE.md", "Makefile"}},
		{"runes, not bytes, are letters",
			[]string{"é-x", "\u00e4\u00a9"}, "é", []string{"é-x"}},
		{"no match is left out",
			[]string{"alpha", "beta"}, "zz", []string{}},
		{"an empty query keeps every name in order",
			[]string{"b", "a"}, " ", []string{"b", "a"}},
	} {
		var got []string
		for _, i := range Rank(c.names, c.query, nil) {
			got = append(got, c.names[i])
		}
		if got == nil {
			got = []string{}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Rank(%q) = %q, want %q", c.what, c.query, got, c.want)
		}
	}
}

// Names that match equally well go in tie's order, then in the order given.
func TestRankBreaksTiesWithTie(t *testing.T) {
	names := []string{"notes.txt", "notes/", "no/", "nope"}
	shorter := func(a, b string) int { return len(a) - len(b) }
	var got []string
	for _, i := range Rank(names, "no", shorter) {
		got = append(got, names[i])
	}
	if want := []string{"no/", "nope", "notes/", "notes.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}
