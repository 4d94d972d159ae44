package view

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/phasechat/phasechat/"

// importersOf lists the non-test Go files of dir that import path.
func importersOf(t *testing.T, dir, path string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == path {
				out = append(out, filepath.Base(f))
			}
		}
	}
	return out
}

// TestTheMarkdownRendererIsReachedFromThreeFiles: the screen reaches the markdown renderer
// only where an entry draws a reply (entry.go), where the renderer is made for a width
// (frame.go) and where its styles are chosen (styles.go). The renderer and the row runs know
// nothing of the screen, and the row runs nothing of markdown.
func TestTheMarkdownRendererIsReachedFromThreeFiles(t *testing.T) {
	if got, want := importersOf(t, ".", module+"view/markdown"), []string{"entry.go", "frame.go", "styles.go"}; !slices.Equal(got, want) {
		t.Errorf("view files importing view/markdown: %v, want %v", got, want)
	}
	for _, c := range []struct{ dir, must string }{
		{"markdown", "view"}, {"rows", "view"}, {"rows", "view/markdown"},
	} {
		if got := importersOf(t, c.dir, module+c.must); len(got) > 0 {
			t.Errorf("view/%s imports %s in %v", c.dir, c.must, got)
		}
	}
}
