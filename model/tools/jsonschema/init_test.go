package jsonschema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoWorkBeforeTheFirstCompile: Go runs every linked package's initialisation at every
// start, so this package has no init function and its package-level variables are tables of
// literals, never the result of a call (a regexp, a map built by code, a formatted string).
func TestNoWorkBeforeTheFirstCompile(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" {
					t.Errorf("%s: an init function", fset.Position(d.Pos()))
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						checked++
						ast.Inspect(v, func(n ast.Node) bool {
							if call, ok := n.(*ast.CallExpr); ok {
								t.Errorf("%s: a package-level variable is computed at start", fset.Position(call.Pos()))
							}
							return true
						})
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package-level variables found: the test looked in the wrong place")
	}
}
