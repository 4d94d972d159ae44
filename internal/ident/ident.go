// Package ident checks what people write in config files and flags to name things: the names
// of providers, tools and MCP servers (by a loop rather than a regexp, whose compile would cost
// hundreds of allocations at every start), and the endpoints phasechat talks to.
package ident

import "net/url"

// WebURL parses raw as an endpoint: an http or https URL with a host. ok is false when raw
// does not parse or is another kind of URL ("ftp://x", "localhost:8080", "http:///v1").
// User info is not refused here; callers that must not hold it check u.User.
func WebURL(raw string) (u *url.URL, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || !IsWebURL(u) {
		return nil, false
	}
	return u, true
}

// IsWebURL reports whether u is an http or https URL with a host.
func IsWebURL(u *url.URL) bool {
	return u != nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Valid reports whether name is 1 to maxLen bytes, each an ASCII letter, an ASCII digit or one
// of the bytes in also.
func Valid(name string, maxLen int, also string) bool {
	if name == "" || len(name) > maxLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || indexByte(also, c)) {
			return false
		}
	}
	return true
}

func indexByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
