package attach

import "testing"

// FuzzMentions: mentions are in order, do not overlap, start at an @ and name only files.
func FuzzMentions(f *testing.F) {
	for _, s := range []string{"review @notes.txt", `@"my file.txt".`, `@"a\"b"`, "a@b @c", "@", `@"`, "(@x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		isFile := func(p string) bool { return len(p)%2 == 1 }
		prev := 0
		for _, m := range Mentions(text, isFile) {
			if m.Start < prev || m.End <= m.Start || m.End > len(text) || text[m.Start] != '@' || !isFile(m.Path) {
				t.Fatalf("bad mention %+v of %q", m, text)
			}
			prev = m.End
		}
	})
}

// FuzzSniff: Sniff never panics, and what it calls text holds no NUL in its sample.
func FuzzSniff(f *testing.F) {
	for _, s := range []string{"\x89PNG\r\n\x1a\n", "RIFF", "RIFF\x00\x00\x00\x00WEBP", "%PDF-", "text", "\xff\xd8"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if kind, _, ok := Sniff(data); ok && kind == Text && !isText(data) {
			t.Fatalf("%q sniffed as text", data)
		}
	})
}
