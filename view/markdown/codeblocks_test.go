package markdown

import (
	"slices"
	"testing"
)

func TestCodeBlocks(t *testing.T) {
	for text, want := range map[string][]string{
		"no code":                         nil,
		"```\na\n```":                     {"a"},
		"  ```py\nx\n\ny\n  ```\n":        {"x\n\ny"},
		"````\n```\ninner\n```\n````":     {"```\ninner\n```"},
		"```\nunclosed":                   {"unclosed"},
		"``` `not a fence`\n":             nil,
		"~~~\nt\n~~~\n```\nu\n```":        {"t", "u"},
		"    ```\nindented code\n    ```": nil,
	} {
		if got := CodeBlocks(text); !slices.Equal(got, want) {
			t.Errorf("CodeBlocks(%q) = %q, want %q", text, got, want)
		}
	}
}
