// Package ident checks the names people give things in config files (providers, tools, MCP
// servers), by a loop rather than a regexp, whose compile would cost hundreds of allocations at
// every start.
package ident

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
