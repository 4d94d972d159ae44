package attach

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/phasechat/phasechat/stream/wire"
)

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

// FuzzSniff: Sniff never panics, and what it calls text holds no NUL and no invalid UTF-8 in
// its sample (a rune cut by the sample's end aside) — checked here from the bytes, not
// through the function Sniff itself uses.
func FuzzSniff(f *testing.F) {
	for _, s := range []string{"\x89PNG\r\n\x1a\n", "RIFF", "RIFF\x00\x00\x00\x00WEBP", "%PDF-", "text", "\xff\xd8"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		kind, _, ok := Sniff(data)
		if !ok || kind != wire.AttachText {
			return
		}
		sample := data[:min(len(data), textSniff)]
		if bytes.IndexByte(sample, 0) >= 0 {
			t.Fatalf("%q sniffed as text with a NUL in its sample", data)
		}
		for len(sample) > 0 {
			r, n := utf8.DecodeRune(sample)
			if r == utf8.RuneError && n == 1 && (len(data) == len(sample) || len(sample) >= utf8.UTFMax) {
				t.Fatalf("%q sniffed as text with invalid UTF-8 at byte %d", data, len(data[:min(len(data), textSniff)])-len(sample))
			}
			sample = sample[n:]
		}
	})
}
