package safe

import "strings"

// Redacted is what Redact puts in place of a secret.
const Redacted = "[redacted]"

// MinSubstringSecret is the length from which a secret is redacted wherever it occurs, even
// inside a longer word. Real cloud API keys are far longer; a shorter secret (a local server
// started with "--api-key test") is redacted only where it stands as a whole token, so that
// "latest" keeps its letters while "Bearer test" and "key=test" still lose the key.
const MinSubstringSecret = 8

// Redact returns s with every occurrence of secret replaced by [Redacted]. Matching is
// byte-exact and left to right, without overlaps. A "Bearer <secret>" header value becomes
// "Bearer [redacted]": the scheme stays visible, the key does not. An empty secret changes
// nothing; a secret shorter than [MinSubstringSecret] bytes is replaced only where the bytes on
// both sides are not token bytes (ASCII letters, digits, '-', '_', or any non-ASCII byte).
func Redact(s, secret string) string {
	if secret == "" {
		return s
	}
	if len(secret) >= MinSubstringSecret {
		return strings.ReplaceAll(s, secret, Redacted)
	}
	var b strings.Builder
	done := 0 // s[:done] is written to b
	for from := 0; ; {
		i := strings.Index(s[from:], secret)
		if i < 0 {
			break
		}
		i += from
		end := i + len(secret)
		from = i + 1
		if (i > 0 && isTokenByte(s[i-1])) || (end < len(s) && isTokenByte(s[end])) {
			continue // part of a longer token
		}
		b.WriteString(s[done:i])
		b.WriteString(Redacted)
		done, from = end, end
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

func isTokenByte(c byte) bool {
	return c >= 0x80 || c == '-' || c == '_' ||
		'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
