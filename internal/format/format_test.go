package format

import (
	"testing"
	"time"
)

func TestFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Thousands(0), "0"}, {Thousands(999), "999"}, {Thousands(1234567), "1,234,567"}, {Thousands(-1234), "-1,234"},
		{Plural(1, "step", "steps"), "step"}, {Plural(0, "step", "steps"), "steps"}, {Plural(2, "step", "steps"), "steps"},
		{Duration(1500 * time.Microsecond), "2ms"}, {Duration(1500 * time.Millisecond), "1.5s"}, {Duration(61 * time.Second), "1m01s"},
		{SpokenDuration(12 * time.Millisecond), "12 ms"}, {SpokenDuration(12500 * time.Millisecond), "12.5 s"},
		{Host("https://user:secret@api.openai.com/v1"), "api.openai.com"}, {Host("http://127.0.0.1:8080/v1"), "127.0.0.1:8080"},
		{WrittenDuration(150 * time.Millisecond), "150ms"}, {WrittenDuration(2 * time.Second), "2s"},
		{WrittenDuration(90 * time.Second), "1m30s"}, {WrittenDuration(2 * time.Minute), "2m"},
		{WrittenDuration(time.Hour + 5*time.Minute), "1h5m"}, {WrittenDuration(1500 * time.Millisecond), "2s"},
		{OneLine(" a\n\n b\tc ", 10), "a b c"}, {OneLine("abcdef", 6), "abcdef"}, {OneLine("abcdefg", 6), "abcde…"},
		{OneLine("ééééé", 3), "éé…"}, {OneLine("", 3), ""},
		{Sentence("the api_key_cmd of provider fx"), "The api_key_cmd of provider fx"}, {Sentence("OPENAI_API_KEY"), "OPENAI_API_KEY"},
		{Sentence("élan"), "Élan"}, {Sentence(""), ""},
		{Host("api.example.com"), "api.example.com"}, {Host("  "), ""}, {Host("user:pw@host:1"), "host:1"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		line string
		more int
	}{
		{"", "", 0}, {"one", "one", 0}, {"one\n", "one", 0}, {"\n\none\ntwo\n\n", "one", 1},
		{"one\ntwo\nthree", "one", 2}, {"  \ntwo", "  ", 1}, {"a\rb\nc", "a\rb", 1},
	} {
		if line, more := FirstLine(tc.in); line != tc.line || more != tc.more {
			t.Errorf("FirstLine(%q) = %q, %d; want %q, %d", tc.in, line, more, tc.line, tc.more)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KB", 1536: "1.5 KB", 10 << 10: "10 KB", 5 << 20: "5 MB", 4404019: "4.2 MB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
