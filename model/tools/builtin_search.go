package tools

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// skippedDirs are version-control directories search_files never enters.
var skippedDirs = map[string]bool{".git": true, ".hg": true, ".svn": true}

// builtinSearchFiles walks path (default ".") and reports the lines containing pattern as
// `file:line: text`, file relative to the root, in walk (lexical) order. It skips directories
// in skippedDirs, symbolic links, binary files and files over maxSearchedFile bytes, and stops
// after maxMatches matches, saying so.
func builtinSearchFiles(ctx context.Context, r *Registry, args map[string]any) (string, error) {
	pattern := stringArg(args, "pattern", "")
	p := stringArg(args, "path", ".")
	ignoreCase := boolArg(args, "ignore_case")
	root, rel, err := r.openWithin(p)
	if err != nil {
		return "", err
	}
	defer root.Close()
	fsys := nonblockingFS{root}

	needle := []byte(pattern)
	if ignoreCase {
		needle = bytes.ToLower(needle)
	}
	var b strings.Builder
	matches, huge, stopped := 0, 0, false
	walkErr := fs.WalkDir(fsys, rel, func(path string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil {
			return nil // an unreadable entry is skipped, not fatal
		}
		if d.IsDir() {
			if path != rel && skippedDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, tooBig, err := readSearched(root, path)
		if tooBig {
			huge++
			return nil
		}
		if err != nil || isBinary(data) {
			return nil
		}
		for n := 1; len(data) > 0; n++ {
			var line []byte
			line, data, _ = bytes.Cut(data, []byte{'\n'})
			hay := line
			if ignoreCase {
				hay = bytes.ToLower(line)
			}
			if !bytes.Contains(hay, needle) {
				continue
			}
			if matches == maxMatches {
				stopped = true
				return fs.SkipAll
			}
			matches++
			text := truncateBytes(string(bytes.TrimRight(line, "\r")), maxMatchLine)
			fmt.Fprintf(&b, "%s:%d: %s\n", quoteName(path), n, text)
		}
		return nil
	})
	if walkErr != nil {
		return "", walkErr // only the context's error ends the walk early
	}
	notes := []string{strings.TrimSuffix(b.String(), "\n")}
	if matches == 0 {
		notes[0] = fmt.Sprintf("no lines contain %q under %s", pattern, quoteName(p))
	}
	if stopped {
		notes = append(notes, fmt.Sprintf("[search stopped after %d matches; narrow the pattern or the path]", maxMatches))
	}
	if huge > 0 {
		notes = append(notes, fmt.Sprintf("[skipped %d files over %d MiB]", huge, maxSearchedFile>>20))
	}
	return strings.Join(notes, "\n"), nil
}

// readSearched reads a file search_files looks into, checking what was opened rather than what
// the listing said: anything but a regular file is skipped without a read (a FIFO must not
// hang the search), and a file over maxSearchedFile is reported too big and never read past
// that limit, even if it grows meanwhile.
func readSearched(root *os.Root, rel string) (data []byte, tooBig bool, err error) {
	f, fi, err := openRegular(root, rel, rel)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if fi.Size() > maxSearchedFile {
		return nil, true, nil
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, maxSearchedFile+1)); err != nil {
		return nil, false, err
	}
	if buf.Len() > maxSearchedFile {
		return nil, true, nil
	}
	return buf.Bytes(), false, nil
}

// nonblockingFS is root as an fs.ReadDirFS whose opens never wait: a FIFO swapped in for a
// directory during a walk is opened without blocking and refused as not a directory.
type nonblockingFS struct{ root *os.Root }

func (n nonblockingFS) Open(name string) (fs.File, error) {
	return n.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func (n nonblockingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := n.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: syscall.ENOTDIR}
	}
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}
