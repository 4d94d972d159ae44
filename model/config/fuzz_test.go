package config

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzParse: any text is either a file whose providers all have a usable base_url and whose
// default names one of them, or errors that are each a *config.Error naming the file. Parsing
// never panics (the line locator reads arbitrary text).
func FuzzParse(f *testing.F) {
	example, _ := os.ReadFile("testdata/example-config.toml")
	for _, seed := range []string{string(example), fullFile, "", "[provider.a]\nbase_url = \"http://h/v1\"\n",
		"a = 1\n[provider.\"x.y\"]\nbase_url = 'http://h'\n# ' \" #\n", "[[provider]]\n", "default = \"a/b/c\"\n",
		"[provider.p]\nbase_url = \"http://h/v1\"\nextra_body = { a = { b = [1, {c = 2}] } }\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		file, err := Parse([]byte(text), "f.toml")
		if err != nil {
			for _, e := range unjoin(err) {
				var ce *Error
				if !errors.As(e, &ce) || ce.File != "f.toml" || ce.Line < 0 {
					t.Fatalf("error %T %q does not name the file", e, e)
				}
			}
			return
		}
		for _, name := range file.Order {
			p := file.Providers[name]
			if p == nil || p.Name != name || !strings.HasPrefix(p.BaseURL, "http") {
				t.Fatalf("provider %q accepted: %+v", name, p)
			}
		}
		if file.Default != "" && file.DefaultProvider() == nil {
			t.Fatalf("default %q names no provider", file.Default)
		}
	})
}
