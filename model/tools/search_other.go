//go:build !unix

package tools

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// walkSearch walks rel under root in lexical order, skipping directories in skippedDirs,
// symbolic links and anything not a regular file, and gives visit each file it reads.
// Unreadable entries are skipped; only the context's error ends the walk early.
func walkSearch(ctx context.Context, root *os.Root, rel string, visit searchVisit) error {
	err := fs.WalkDir(nonblockingFS{root}, rel, func(path string, d fs.DirEntry, err error) error {
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
		if err != nil && !tooBig {
			return nil
		}
		return visit(path, data, tooBig)
	})
	if err == fs.SkipAll {
		return nil
	}
	return err
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
