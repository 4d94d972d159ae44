package attach

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestListRespectsGitignoreAtEveryLevel: the root's and a subfolder's .gitignore both apply,
// each to its own folder; .git is never listed; directories end in a slash.
func TestListRespectsGitignoreAtEveryLevel(t *testing.T) {
	dir := tree(t, map[string]string{
		".gitignore":         "*.log\nbuild/\n",
		"main.go":            "",
		"debug.log":          "",
		"build/out.bin":      "",
		"docs/.gitignore":    "draft.md\n",
		"docs/guide.md":      "",
		"docs/draft.md":      "",
		"other/draft.md":     "",
		".git/config":        "",
		"model/chat/turn.go": "",
	})
	got, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{".gitignore", "docs/", "docs/.gitignore", "docs/guide.md", "main.go", "model/", "model/chat/", "model/chat/turn.go", "other/", "other/draft.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List = %q\nwant   %q", got, want)
	}
}

func TestListDoesNotFollowLinks(t *testing.T) {
	outside := tree(t, map[string]string{"secret/key.txt": ""})
	dir := tree(t, map[string]string{"a.txt": ""})
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	got, _ := List(dir)
	if slices.Contains(got, "link/key.txt") || !slices.Contains(got, "link") {
		t.Errorf("List = %q: the link must be listed, not followed", got)
	}
}

func TestRankPutsTheBestMatchFirst(t *testing.T) {
	paths := []string{"model/chat/turn.go", "model/", "model/chat/", "docs/turning.md", "README.md", "main.go", "internal/tmux/run.go"}
	cases := []struct {
		q    string
		want []string
	}{
		{"turn", []string{"model/chat/turn.go", "docs/turning.md", "internal/tmux/run.go"}},
		{"mct", []string{"model/chat/", "model/chat/turn.go"}},
		{"model", []string{"model/", "model/chat/", "model/chat/turn.go"}},
		{"README", []string{"README.md"}},
		{"zzz", []string{}},
	}
	for _, c := range cases {
		if got := Rank(paths, c.q, 3); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Rank(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
