package config

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, text string) *File {
	t.Helper()
	f, err := Parse([]byte(text), "c.toml")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestChoose(t *testing.T) {
	f := mustParse(t, `default = "first/pinned"
[provider.first]
base_url = "http://127.0.0.1:1/v1"
models = ["a", "b"]
default_model = "b"

[provider.second]
base_url = "http://127.0.0.1:2/v1"
models = ["text", "other"]

[provider.bare]
base_url = "http://127.0.0.1:3/v1"
`)
	cases := []struct {
		provider, model string
		want            string
		err             string
	}{
		{"", "", "first/pinned", ""},                               // default names provider and model
		{"first", "", "first/pinned", ""},                          // the default's model goes with its provider
		{"second", "", "second/text", ""},                          // first listed model
		{"", "second/text", "second/text", ""},                     // -m provider/model
		{"", "second/other", "second/other", ""},                   //
		{"", "x", "first/x", ""},                                   // --model alone: the default provider
		{"", "moonshotai/kimi-k2", "first/moonshotai/kimi-k2", ""}, // a slash that names no provider
		{"second", "second/text", "second/text", ""},               //
		{"first", "second/text", "", "name different providers"},
		{"nope", "", "", `no provider named "nope"`},
		{"bare", "", "bare/", ""}, // no model: the caller asks the server
	}
	for _, c := range cases {
		got, err := f.Choose(c.provider, c.model)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("(%q, %q): err %v, want %q", c.provider, c.model, err, c.err)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("(%q, %q) = %q, %v; want %q", c.provider, c.model, got, err, c.want)
		}
	}
	if got, _ := f.Choose("", "secnod/text"); got.Unmatched != "secnod" {
		t.Errorf("a slash that names no provider: Unmatched = %q", got.Unmatched)
	}
	if got, _ := f.Choose("", "second/text"); got.Unmatched != "" {
		t.Errorf("a provider that exists: Unmatched = %q", got.Unmatched)
	}
	if got := f.Closest("secnod"); strings.Join(got, ",") != "second" {
		t.Errorf("Closest(secnod) = %v", got)
	}
	if got := f.Closest("zzzzzz"); len(got) != 0 {
		t.Errorf("Closest(zzzzzz) = %v, want none", got)
	}
	noDefault := mustParse(t, "[provider.z]\nbase_url = \"http://h/v1\"\ndefault_model = \"m\"\n[provider.y]\nbase_url = \"http://h/v1\"\n")
	if got, _ := noDefault.Choose("", ""); got.String() != "z/m" {
		t.Errorf("no default: the first provider declared, got %q", got)
	}
	if got := f.Providers["first"].ListedModels(); strings.Join(got, ",") != "a,b" {
		t.Errorf("listed = %v", got)
	}
	extra := mustParse(t, "[provider.z]\nbase_url = \"http://h/v1\"\ndefault_model = \"m\"\nmodels = [\"a\"]\n")
	if got := extra.Providers["z"].ListedModels(); strings.Join(got, ",") != "m,a" {
		t.Errorf("listed with default_model outside models = %v", got)
	}
}
