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
