package sessions

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// fileGrace is how long a kept file stays after it was last written or reused even when no
// log names it: a conversation keeps a file just before it writes the line that names it, so
// a file that new may be about to be named.
const fileGrace = 10 * time.Minute

// namedFile is how a log line names a kept file: the attachment's "sha256" field. Another
// text that happens to match only keeps a file longer.
var namedFile = regexp.MustCompile(`"sha256":"([0-9a-f]{64})"`)

// collectFiles deletes the kept files that no log in the store names and that were last
// written or reused before now less fileGrace, and says how many it deleted. Every log in
// the folder counts, listed or not: a file is deleted only when nothing could resume with it.
func (s *Store) collectFiles(now time.Time) (int, error) {
	kept, err := os.ReadDir(filepath.Join(s.dir, filesFolder))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	named, err := s.namedFiles()
	if err != nil {
		return 0, err
	}
	removed := 0
	var errs []error
	for _, e := range kept {
		if !validHash(e.Name()) || named[e.Name()] {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < fileGrace {
			continue
		}
		if err := os.Remove(s.filePath(e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}

// namedFiles are the hashes of the kept files the store's logs name.
func (s *Store) namedFiles() (map[string]bool, error) {
	logs, err := filepath.Glob(filepath.Join(s.dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	named := map[string]bool{}
	for _, path := range logs {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if !bytes.Contains(data, []byte(`"sha256":"`)) {
			continue
		}
		for _, m := range namedFile.FindAllSubmatch(data, -1) {
			named[string(m[1])] = true
		}
	}
	return named, nil
}
