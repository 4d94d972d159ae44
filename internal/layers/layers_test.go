package layers

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/phasechat/phasechat"

// ioPackages is what a pure package must not link: the network, processes, the SSE library
// and rendering. A prefix matches a module path and every package under it.
var ioPackages = []string{"net/http", "os/exec", "github.com/r3labs/sse", "charm.land/lipgloss", "github.com/charmbracelet/lipgloss"}

// pure are the packages that link none of ioPackages: the core, the meaning of the bytes, and
// the engine, which names calls and results by phase's types and leaves running them to
// model/perform.
var pure = []string{"phase", "phase/transcript", "stream/wire", "model/chat"}

// drawing are the only packages that may link lipgloss: the screen (view and the packages
// under it), the full-screen front end, the composition root that picks the styles, and the
// command line.
var drawing = []string{"", "view", "model/tui", "model/app"}

// mayDraw reports whether the package at rel (relative to the module) is one of drawing or
// under one of them.
func mayDraw(rel string) bool {
	return slices.ContainsFunc(drawing, func(d string) bool {
		return rel == d || d != "" && strings.HasPrefix(rel, d+"/")
	})
}

// graph is every package of the module and everything it links, as import path → imports.
func graph(t *testing.T) map[string][]string {
	t.Helper()
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = filepath.Clean(strings.TrimSpace(string(root)))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./...: %v", err)
	}
	g := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		g[f[0]] = f[1:]
	}
	return g
}

// chain is the shortest import chain from pkg to a package that matches one of bad, "" when
// pkg links none.
func chain(g map[string][]string, pkg string, bad []string) string {
	from := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if slices.ContainsFunc(bad, func(b string) bool { return p == b || strings.HasPrefix(p, b+"/") }) {
			path := []string{p}
			for q := from[p]; q != ""; q = from[q] {
				path = append(path, q)
			}
			slices.Reverse(path)
			return strings.Join(path, " -> ")
		}
		for _, next := range g[p] {
			if _, seen := from[next]; !seen {
				from[next] = p
				queue = append(queue, next)
			}
		}
	}
	return ""
}

func path(rel string) string {
	if rel == "" {
		return module
	}
	return module + "/" + rel
}

func TestPurePackagesLinkNoIO(t *testing.T) {
	g := graph(t)
	for _, rel := range pure {
		if _, ok := g[path(rel)]; !ok {
			t.Errorf("%s is not a package of the module", path(rel))
			continue
		}
		if c := chain(g, path(rel), ioPackages); c != "" {
			t.Errorf("%s must link no network, process, SSE or rendering package (docs/architecture.md, Layers), but: %s", rel, c)
		}
	}
}

func TestOnlyTheDrawingPackagesLinkLipgloss(t *testing.T) {
	g := graph(t)
	lipgloss := []string{"charm.land/lipgloss", "github.com/charmbracelet/lipgloss"}
	for pkg := range g {
		rel, ours := strings.CutPrefix(pkg, module)
		if !ours || mayDraw(strings.TrimPrefix(rel, "/")) {
			continue
		}
		if c := chain(g, pkg, lipgloss); c != "" {
			t.Errorf("%s links lipgloss, which only %q may (docs/architecture.md, Layers): %s", pkg, drawing, c)
		}
	}
}
