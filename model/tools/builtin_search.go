package tools

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"strings"
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

	needle := []byte(pattern)
	if ignoreCase {
		needle = bytes.ToLower(needle)
	}
	var b strings.Builder
	matches, huge, stopped := 0, 0, false
	walkErr := walkSearch(ctx, root, rel, func(path string, data []byte, tooBig bool) error {
		if tooBig {
			huge++
			return nil
		}
		if isBinary(data) {
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

// searchVisit is given each file the walk of search_files reads, in lexical order: its path
// relative to the root and its contents, or tooBig (and no contents) for a file over
// maxSearchedFile. data is valid only during the call. fs.SkipAll ends the walk.
type searchVisit func(path string, data []byte, tooBig bool) error

// joinRel is path.Join for a clean relative directory and a name from its listing.
func joinRel(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}
