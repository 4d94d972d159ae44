package jsonstr

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzUnescape checks the string decoder against encoding/json on any valid string literal,
// and that the lone halves it reports are what the text starts and ends with.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{`plain`, `caf\u00e9`, `\ud83d\ude00`, `\ud83d`, `\ude00`, `\ude00x\ud83d`, `\\ud83d`,
		`\ud83d\ud83d\ude00`, "\xff\xed\xa0\x80", `\u0000\n\"\/`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		literal := `"` + body + `"`
		var want string
		if json.Unmarshal([]byte(literal), &want) != nil {
			return
		}
		got, halves := Unescape(body)
		if got != want {
			t.Fatalf("%q: Unescape %q, encoding/json %q", body, got, want)
		}
		if halves.Low != 0 && (!strings.HasPrefix(got, "\uFFFD") || !strings.HasPrefix(body, `\u`)) ||
			halves.High != 0 && (!strings.HasSuffix(got, "\uFFFD") || len(body) < 6 || body[len(body)-6] != '\\') {
			t.Fatalf("%q: halves %+v of %q", body, halves, got)
		}
	})
}

// FuzzScan checks Scan against encoding/json on any literal: it is valid exactly when
// encoding/json decodes it, to the same text, and ScanBytes agrees.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`"plain"`, `"caf\u00e9"`, `"\ud83d\ude00x"`, "\"tab\there\"", `"no end`, `"bad \q"`,
		"\"\xff\xfe\"", `"eight!!!\"quote"`, `"\u12"`, `"é and more than eight bytes \n"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, literal string) {
		if !strings.HasPrefix(literal, `"`) {
			return
		}
		end, got, _, ok := Scan(literal, 1)
		var want string
		jsonValid := json.Unmarshal([]byte(literal), &want) == nil
		whole := ok && end == len(strings.TrimRight(literal, " \t\r\n"))
		if whole != jsonValid {
			t.Fatalf("%q: Scan ok %v, end %d; encoding/json valid %v", literal, ok, end, jsonValid)
		}
		if jsonValid && got != want {
			t.Fatalf("%q: Scan %q, encoding/json %q", literal, got, want)
		}
		buf := []byte(literal)
		bend, bgot, bok := ScanBytes(buf, 1)
		for i := range buf {
			buf[i] = 'x' // ScanBytes' text is a string of its own: reusing the buffer leaves it be
		}
		if bend != end || bgot != got || bok != ok {
			t.Fatalf("%q: ScanBytes %d %q %v, Scan %d %q %v", literal, bend, bgot, bok, end, got, ok)
		}
		if send, sok := SkipBytes([]byte(literal), 1); sok != ok || ok && send != end {
			t.Fatalf("%q: SkipBytes %d %v, Scan %d %v", literal, send, sok, end, ok)
		}
	})
}
