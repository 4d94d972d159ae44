package ident

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, c := range []struct {
		name string
		max  int
		also string
		ok   bool
	}{
		{"read_file", 64, "_-", true},
		{"Read-File2", 64, "_-", true},
		{"", 64, "_-", false},
		{strings.Repeat("a", 64), 64, "_-", true},
		{strings.Repeat("a", 65), 64, "_-", false},
		{"gpt.4o", 64, "_-", false},
		{"gpt.4o", 64, "._-", true},
		{"a b", 64, "_-", false},
		{"ünï", 64, "_-", false},
		{"a/b", 64, "_-", false},
		{"x", 0, "", false},
	} {
		if got := Valid(c.name, c.max, c.also); got != c.ok {
			t.Errorf("Valid(%q, %d, %q) = %v, want %v", c.name, c.max, c.also, got, c.ok)
		}
	}
}

func TestWebURL(t *testing.T) {
	for _, c := range []struct {
		raw  string
		host string
		ok   bool
	}{
		{"http://127.0.0.1:8080/v1", "127.0.0.1:8080", true},
		{"https://api.openai.com/v1", "api.openai.com", true},
		{"HTTPS://API.example.com", "API.example.com", true},
		{"https://user:pw@host/v1", "host", true},
		{"http://[::1]:3000/mcp", "[::1]:3000", true},
		{"", "", false},
		{"localhost:8080", "", false},
		{"127.0.0.1:8080/v1", "", false},
		{"api.openai.com/v1", "", false},
		{"ftp://host/x", "", false},
		{"file:///etc/passwd", "", false},
		{"http:///v1", "", false},
		{"http://", "", false},
		{"http://host:port/", "", false},
		{"http://a b/", "", false},
		{"//host/v1", "", false},
		{"mailto:x@host", "", false},
	} {
		u, ok := WebURL(c.raw)
		if ok != c.ok || ok && u.Host != c.host {
			t.Errorf("WebURL(%q) = %v, %v; want host %q, %v", c.raw, u, ok, c.host, c.ok)
		}
		if !ok && u != nil {
			t.Errorf("WebURL(%q) returned a URL with ok false", c.raw)
		}
	}
	if IsWebURL(nil) {
		t.Error("IsWebURL(nil) = true")
	}
}
