package attach

import (
	"reflect"
	"testing"
)

func TestMentions(t *testing.T) {
	files := map[string]bool{"notes.txt": true, "my file.txt": true, "dir/a.go": true, `we"ird\.md`: true, "end.": true}
	isFile := func(p string) bool { return files[p] }
	cases := []struct {
		text string
		want []string
	}{
		{"review @notes.txt please", []string{"notes.txt"}},
		{"@notes.txt", []string{"notes.txt"}},
		{"see @notes.txt, and @dir/a.go.", []string{"notes.txt", "dir/a.go"}},
		{"(@notes.txt)", []string{"notes.txt"}},
		{`open @"my file.txt" now`, []string{"my file.txt"}},
		{`@"we\"ird\\.md"`, []string{`we"ird\.md`}},
		{"ask @alice about it", nil},
		{"mail me at bob@notes.txt", nil},
		{`@"unterminated`, nil},
		{"@", nil},
		{"@ notes.txt", nil},
		{"@end.", []string{"end."}},
		{`@"my file.txt".`, []string{"my file.txt"}},
	}
	for _, c := range cases {
		var got []string
		for _, m := range Mentions(c.text, isFile) {
			got = append(got, m.Path)
			if m.Start < 0 || m.End > len(c.text) || c.text[m.Start] != '@' {
				t.Errorf("%q: mention %+v out of place", c.text, m)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Mentions(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestQuoteReadsBackAsTheSamePath(t *testing.T) {
	for _, p := range []string{"plain.go", "my file.txt", `a"b`, `back\slash and space`, "tab\there"} {
		m := Mentions(Quote(p), func(s string) bool { return s == p })
		if len(m) != 1 || m[0].Path != p {
			t.Errorf("Quote(%q) = %q reads back as %+v", p, Quote(p), m)
		}
	}
}

func TestOpenMention(t *testing.T) {
	cases := []struct {
		text, query string
		at          int
		ok          bool
	}{
		{"review @mod", "mod", 7, true},
		{"@", "", 0, true},
		{`see @"my fi`, "my fi", 4, true},
		{"review @model/chat.go now", "", 0, false},
		{"mail bob@exa", "", 0, false},
		{`done @"my file.txt"`, "", 0, false},
		{"no mention", "", 0, false},
	}
	for _, c := range cases {
		at, q, ok := OpenMention(c.text)
		if at != c.at || q != c.query || ok != c.ok {
			t.Errorf("OpenMention(%q) = %d %q %v, want %d %q %v", c.text, at, q, ok, c.at, c.query, c.ok)
		}
	}
}
