//go:build unix

package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// walkSearch walks rel under root in lexical order, skipping directories in skippedDirs,
// symbolic links and anything not a regular file, and gives visit each file it reads.
// Unreadable entries are skipped; only the context's error ends the walk early.
//
// rel itself is opened through root (os.Root's confinement); below it every directory and file
// is opened once, by name, relative to its parent's descriptor, never following a symbolic
// link (O_NOFOLLOW) and never waiting (O_NONBLOCK: a FIFO swapped in for a listed directory or
// file is refused, not waited on). A listing's names have no slash and are never "..", so
// nothing the walk opens can be outside rel.
func walkSearch(ctx context.Context, root *os.Root, rel string, visit searchVisit) error {
	f, err := root.OpenFile(rel, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil // nothing there to search
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	w := &searchWalk{ctx: ctx, visit: visit}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var entries []os.DirEntry
	if fi.IsDir() {
		entries, _ = f.ReadDir(-1) // what could be read is searched
	}
	ctlErr := rc.Control(func(fd uintptr) {
		if fi.IsDir() {
			err = w.dir(int(fd), rel, entries)
			return
		}
		if fi.Mode().IsRegular() {
			err = w.file(int(fd), rel)
		}
	})
	switch {
	case ctlErr != nil:
		return nil
	case errors.Is(err, fs.SkipAll):
		return nil
	}
	return err
}

// searchWalk is one walk of search_files; buf is the read buffer every file reuses.
type searchWalk struct {
	ctx   context.Context
	visit searchVisit
	buf   []byte
}

// dir visits the entries of the directory open as fd (path relative to the root).
func (w *searchWalk) dir(fd int, path string, entries []os.DirEntry) error {
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		name := e.Name()
		switch {
		case e.IsDir():
			if skippedDirs[name] {
				continue
			}
			if err := w.subdir(fd, name, joinRel(path, name)); err != nil {
				return err
			}
		case e.Type().IsRegular():
			ffd, err := openSearchedFile(fd, name)
			if err != nil {
				continue
			}
			err = w.file(ffd, joinRel(path, name))
			unix.Close(ffd)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// subdir walks the directory name of the directory open as parent.
func (w *searchWalk) subdir(parent int, name, path string) error {
	fd, err := openSearchedDir(parent, name)
	if err != nil {
		return nil // gone, not a directory any more, or unreadable: skipped
	}
	d := os.NewFile(uintptr(fd), path) // owns fd from here
	defer d.Close()
	entries, _ := d.ReadDir(-1)
	return w.dir(fd, path, entries)
}

// file reads the file open as fd and visits it.
func (w *searchWalk) file(fd int, path string) error {
	data, tooBig, err := readSearchedFD(fd, w.buf[:0])
	if err != nil {
		return nil
	}
	if !tooBig {
		w.buf = data
	}
	return w.visit(path, data, tooBig)
}

// openSearchedDir opens the directory name of the directory open as parent, without following
// a symbolic link and without waiting: anything but a directory (a FIFO swapped in after the
// listing) is refused at the open.
func openSearchedDir(parent int, name string) (int, error) {
	return openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC)
}

// openSearchedFile opens the file name of the directory open as parent, without following a
// symbolic link and without waiting (a FIFO opens at once and is then refused by its type).
func openSearchedFile(parent int, name string) (int, error) {
	return openat(parent, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC)
}

func openat(parent int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(parent, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// errNotRegular refuses what is not a regular file: nothing of it is read.
var errNotRegular = errors.New("not a regular file")

// readSearchedFD reads the file open as fd into buf (reused, grown as needed), checking what
// was opened rather than what the listing said: anything but a regular file is refused
// without a read, and a file over maxSearchedFile is reported too big and never read past that
// limit, even if it grows meanwhile.
func readSearchedFD(fd int, buf []byte) (data []byte, tooBig bool, err error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, false, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false, errNotRegular
	}
	if st.Size > maxSearchedFile {
		return nil, true, nil
	}
	if want := int(st.Size) + 1; cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), maxSearchedFile+1-len(buf)))
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		if n <= 0 {
			return buf, false, nil
		}
		buf = buf[:len(buf)+n]
		if len(buf) > maxSearchedFile {
			return nil, true, nil
		}
	}
}
