package attach

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode/utf8"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/phasechat/phasechat/internal/fuzzy"
)

// MaxListed bounds the paths List returns: a home directory or a monorepo is cut, never
// walked to its end.
const MaxListed = 20000

// maxDepth bounds how deep List walks.
const maxDepth = 16

// errFull ends a walk that has listed MaxListed paths.
var errFull = errors.New("listed enough")

// List is what an @mention may complete to under dir: each file and directory (directories
// with a trailing slash) as a slash-separated path relative to dir, in walk order, at most
// MaxListed. The .git folder and whatever a .gitignore (at any level) ignores are left out;
// symbolic links are listed, never followed.
func List(dir string) ([]string, error) {
	var stack []ignoreRules
	var out []string
	ignored := func(rel string, isDir bool) bool {
		for _, r := range stack {
			if r.base != "" && !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub := strings.TrimPrefix(strings.TrimPrefix(rel, r.base), "/")
			if r.gi.MatchesPath(sub) || isDir && r.gi.MatchesPath(sub+"/") {
				return true
			}
		}
		return false
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // an unreadable folder is skipped, not fatal
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			stack = withRules(nil, dir, "")
			return nil
		}
		// leave the rules of folders the walk has left
		for len(stack) > 0 && stack[len(stack)-1].base != "" && !strings.HasPrefix(rel, stack[len(stack)-1].base+"/") {
			stack = stack[:len(stack)-1]
		}
		if d.IsDir() && (d.Name() == ".git" || strings.Count(rel, "/") >= maxDepth) || ignored(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !utf8.ValidString(rel) {
			return nil // a name no one can type
		}
		if d.IsDir() {
			out = append(out, rel+"/")
			stack = withRules(stack, p, rel)
		} else {
			out = append(out, rel)
		}
		if len(out) >= MaxListed {
			return errFull
		}
		return nil
	})
	if errors.Is(err, errFull) {
		err = nil
	}
	return out, err
}

// ignoreRules are the rules of one .gitignore; base is its folder relative to the walk's
// root ("" for the root).
type ignoreRules struct {
	base string
	gi   *ignore.GitIgnore
}

// withRules adds the .gitignore of folder p (rel from the walk's root) to stack, if it has one.
func withRules(stack []ignoreRules, p, rel string) []ignoreRules {
	gi, err := ignore.CompileIgnoreFile(filepath.Join(p, ".gitignore"))
	if err != nil || gi == nil {
		return stack
	}
	return append(stack, ignoreRules{rel, gi})
}

// Rank is the at most limit paths that match query, best first (see fuzzy.Rank); among those
// that match equally well, folders before files, then shorter paths.
func Rank(paths []string, query string, limit int) []string {
	folderShorter := func(a, b string) int {
		switch da, db := strings.HasSuffix(a, "/"), strings.HasSuffix(b, "/"); {
		case da && !db:
			return -1
		case db && !da:
			return 1
		}
		return len(a) - len(b)
	}
	best := fuzzy.Rank(paths, query, folderShorter)
	out := make([]string, 0, min(limit, len(best)))
	for _, i := range best[:min(limit, len(best))] {
		out = append(out, paths[i])
	}
	return out
}
