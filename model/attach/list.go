package attach

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	ignore "github.com/sabhiram/go-gitignore"
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

// Rank orders paths by how well they match query, best first, keeping those that hold its
// characters in order (case ignored) and at most limit of them: a path whose name starts
// with the query first (its whole name, or the name but its extension, before the rest), then
// those where it stands whole, then by how close together the
// characters fall; directories before files, then shorter paths, among equals.
func Rank(paths []string, query string, limit int) []string {
	q := strings.ToLower(query)
	type scored struct {
		p     string
		score int
	}
	var hits []scored
	for _, p := range paths {
		if s, ok := matchScore(strings.ToLower(p), q); ok {
			if strings.HasSuffix(p, "/") {
				s += 1
			}
			hits = append(hits, scored{p, s})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return len(a.p) - len(b.p)
	})
	out := make([]string, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.p)
	}
	return out
}

// matchScore says whether q's characters appear in p in order, and how well.
func matchScore(p, q string) (int, bool) {
	if q == "" {
		return 0, true
	}
	name := path.Base(strings.TrimSuffix(p, "/"))
	stem, _, _ := strings.Cut(name, ".")
	switch {
	case name == q || stem == q:
		return 350, true
	case strings.HasPrefix(name, q):
		return 300, true
	case strings.HasPrefix(p, q):
		return 250, true
	case strings.Contains(p, q):
		return 200, true
	}
	// a subsequence: fewer gaps score higher
	gaps, last, i := 0, -1, 0
	for j := 0; j < len(p) && i < len(q); j++ {
		if p[j] == q[i] {
			if last >= 0 && j != last+1 {
				gaps++
			}
			last = j
			i++
		}
	}
	if i < len(q) {
		return 0, false
	}
	return 100 - min(gaps, 99), true
}
