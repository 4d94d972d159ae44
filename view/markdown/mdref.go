package markdown

// charRef decodes a numeric character reference at the start of s ("&#" digits ";" or "&#x"
// hex ";", as CommonMark allows: 1–7 decimal or 1–6 hex digits), returning its code point and
// length, or n == 0 when s does not start with one.
func charRef(s string) (r rune, n int) {
	k, base, maxDigits := 2, rune(10), 7
	if k < len(s) && (s[k] == 'x' || s[k] == 'X') {
		k, base, maxDigits = 3, 16, 6
	}
	start := k
	for k < len(s) && k-start < maxDigits {
		d := hexVal(s[k])
		if d < 0 || d >= base {
			break
		}
		r = r*base + d
		k++
	}
	if k == start || k >= len(s) || s[k] != ';' {
		return 0, 0
	}
	return r, k + 1
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}
