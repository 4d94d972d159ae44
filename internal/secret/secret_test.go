package secret

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnop"
	for _, tc := range []struct{ name, s, secret, want string }{
		{"empty secret", "anything", "", "anything"},
		{"absent", "no key here", key, "no key here"},
		{"bearer header", "Authorization: Bearer " + key, key, "Authorization: Bearer [redacted]"},
		{"every occurrence", key + " and " + key, key, "[redacted] and [redacted]"},
		{"inside a url", "https://x.example/v1?key=" + key + "&a=1", key, "https://x.example/v1?key=[redacted]&a=1"},
		{"inside json", `{"api_key":"` + key + `"}`, key, `{"api_key":"[redacted]"}`},
		{"long secret inside a word", "x" + key + "y", key, "x[redacted]y"},
		{"short secret as a token", "Bearer test", "test", "Bearer [redacted]"},
		{"short secret after =", "key=test&x=1", "test", "key=[redacted]&x=1"},
		{"short secret inside words", "latest tests attest", "test", "latest tests attest"},
		{"short secret mixed", "latest test", "test", "latest [redacted]"},
		{"short secret at both ends", "test,test", "test", "[redacted],[redacted]"},
		{"short secret next to unicode", "éteste", "test", "éteste"},
		{"one byte secret", "key: x.", "x", "key: [redacted]."},
		{"three byte secret", "Bearer abc", "abc", "Bearer [redacted]"},
		{"exactly the minimum length", "ab12345678cd", "12345678", "ab[redacted]cd"},
		{"url-escaped form", "k=a%2Fb%2Bc%3D%3D12345", "a/b+c==12345", "k=[redacted]"},
		{"json-escaped form", `"pw":"a\"b\\c-12345"`, `a"b\c-12345`, `"pw":"[redacted]"`},
	} {
		if got := New(tc.secret).Redact(tc.s); got != tc.want {
			t.Errorf("%s: Redact(%q) with %q = %q, want %q", tc.name, tc.s, tc.secret, got, tc.want)
		}
	}
}

func TestNilAndEmptySetsRedactNothing(t *testing.T) {
	var s *Set
	if s.Redact("abc") != "abc" || !s.Empty() || s.Stream().Write("abc") != "abc" {
		t.Fatal("a nil set changed text")
	}
	if (&Set{}).Redact("abc") != "abc" {
		t.Fatal("a zero set changed text")
	}
}

func TestLongerSecretWinsOverItsPrefix(t *testing.T) {
	s := New("sk-aaaaaaaa", "sk-aaaaaaaa-bbbbbbbb")
	if got := s.Redact("x sk-aaaaaaaa-bbbbbbbb y"); got != "x [redacted] y" {
		t.Fatalf("got %q", got)
	}
	st := s.Stream()
	got := st.Write("x sk-aaaaaaaa") + st.Write("-bbbb") + st.Write("bbbb y") + st.Flush()
	if got != "x [redacted] y" {
		t.Fatalf("streamed: got %q", got)
	}
}

func TestAddHeaderAndURL(t *testing.T) {
	s := New()
	s.AddHeader("Bearer tok-1234567890")
	s.AddHeader("Basic " + base64.StdEncoding.EncodeToString([]byte("alice:hunter2")))
	s.AddURL("https://bob:pa55w0rd@example.com/v1?api-version=2024&api-key=qwerty123456&sig=zz")
	for _, leak := range []string{"tok-1234567890", "hunter2", "pa55w0rd", "qwerty123456", "zz"} {
		if out := s.Redact("echo " + leak + " end"); strings.Contains(out, leak) {
			t.Errorf("%q survived: %q", leak, out)
		}
	}
	if out := s.Redact("api-version=2024 for bob"); out != "api-version=2024 for bob" {
		t.Errorf("non-secret parts were redacted: %q", out)
	}
}

func TestAddLaterApplies(t *testing.T) {
	s := New()
	s.Add("late-secret-value")
	if s.Redact("a late-secret-value") != "a [redacted]" {
		t.Fatal("a secret added later was not redacted")
	}
	w := s.With("extra-secret-value")
	if w.Redact("extra-secret-value") != Redacted || s.Redact("extra-secret-value") != "extra-secret-value" {
		t.Fatal("With changed the original or missed the extra")
	}
}

// streamed redacts s cut at the given offsets.
func streamed(set *Set, s string, cuts []int) string {
	st := set.Stream()
	var b strings.Builder
	from := 0
	for _, c := range cuts {
		if c < from || c > len(s) {
			continue
		}
		b.WriteString(st.Write(s[from:c]))
		from = c
	}
	b.WriteString(st.Write(s[from:]))
	b.WriteString(st.Flush())
	return b.String()
}

func TestStreamHidesASecretSplitAcrossPieces(t *testing.T) {
	const key = "sk-live-0123456789"
	set := New(key, "pw")
	text := "echo: Bearer " + key + " and pw, not pwd."
	want := set.Redact(text)
	if strings.Contains(want, key) || !strings.Contains(want, "pwd") || strings.Contains(want, " pw,") {
		t.Fatalf("Redact = %q", want)
	}
	for cut := 0; cut <= len(text); cut++ {
		for cut2 := cut; cut2 <= len(text); cut2 += 3 {
			if got := streamed(set, text, []int{cut, cut2}); got != want {
				t.Fatalf("cut at %d,%d: %q, want %q", cut, cut2, got, want)
			}
		}
	}
	st := set.Stream()
	if out := st.Write("Bearer sk-live-01"); strings.Contains(out, "sk-live-01") || !st.Pending() {
		t.Fatalf("the start of a split key was passed on: %q", out)
	}
}

func FuzzStreamEqualsRedact(f *testing.F) {
	f.Add("a test of sk-0123456789 tests", "test", "sk-0123456789", 3, 9)
	f.Add("xxabcabcabcd", "abcabcd", "ab", 2, 5)
	f.Fuzz(func(t *testing.T, text, s1, s2 string, c1, c2 int) {
		set := New(s1, s2)
		want := set.Redact(text)
		got := streamed(set, text, []int{c1 % (len(text) + 1), c2 % (len(text) + 1)})
		if c1 >= 0 && c2 >= 0 && got != want {
			t.Fatalf("streamed %q, whole %q", got, want)
		}
	})
}
