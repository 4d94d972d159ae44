package safe

import "testing"

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
		{"exactly the minimum length", "ab12345678cd", "12345678", "ab[redacted]cd"},
	} {
		if got := Redact(tc.s, tc.secret); got != tc.want {
			t.Errorf("%s: Redact(%q, %q) = %q, want %q", tc.name, tc.s, tc.secret, got, tc.want)
		}
	}
}
