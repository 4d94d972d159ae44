package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// resolve maps a path the model gave (relative to the root, or absolute) to a clean path
// relative to r.root with every symlink resolved, or explains why it may not be used: it is,
// or leads through a symlink, outside the root, or does not exist. Paths outside the root are
// refused before anything is looked up there. Callers then open the result through os.Root,
// which refuses escapes again, so a symlink swapped in meanwhile cannot lead out either.
func (r *Registry) resolve(p string) (string, error) {
	if p == "" {
		p = "."
	}
	if strings.ContainsRune(p, 0) {
		return "", errors.New("the path contains a NUL byte")
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(r.root, p)
	}
	abs = filepath.Clean(abs)
	if !within(r.root, abs) {
		return "", fmt.Errorf("%s is outside the working directory %s; only paths inside it may be used", quoteName(p), r.root)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s does not exist in the working directory", quoteName(p))
	}
	if err != nil {
		return "", fmt.Errorf("%s cannot be used: %v", quoteName(p), err)
	}
	if !within(r.root, real) {
		return "", fmt.Errorf("%s leads outside the working directory through a symbolic link; only paths inside it may be used", quoteName(p))
	}
	rel, err := filepath.Rel(r.root, real)
	if err != nil {
		return "", fmt.Errorf("%s cannot be used: %v", quoteName(p), err)
	}
	return filepath.ToSlash(rel), nil
}

// within reports whether path is root or lies beneath it. Both must be absolute and clean.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// quoteName shows a file name as it is, or Go-quoted when it holds control characters (a
// newline in a name must not split a listing line) or would read ambiguously.
func quoteName(name string) string {
	if name == "" || strings.ContainsFunc(name, unicode.IsControl) || strings.TrimSpace(name) != name {
		return strconv.Quote(name)
	}
	return name
}

// openWithin resolves p (refusing any way out of the root, see resolve) and opens the root, so
// the caller reaches p only through it: a link swapped in after the check still cannot lead
// out. The caller closes the root.
func (r *Registry) openWithin(p string) (root *os.Root, rel string, err error) {
	if rel, err = r.resolve(p); err != nil {
		return nil, "", err
	}
	if root, err = os.OpenRoot(r.root); err != nil {
		return nil, "", fmt.Errorf("the working directory cannot be opened: %v", err)
	}
	return root, rel, nil
}
