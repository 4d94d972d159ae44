package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// builtinListDir lists one directory: names sorted, directories with a trailing /, symbolic
// links with a trailing @ (as ls -F), at most maxListEntries of them.
func builtinListDir(ctx context.Context, r *Registry, args map[string]any) (string, error) {
	p := stringArg(args, "path", ".")
	root, rel, err := r.openWithin(p)
	if err != nil {
		return "", err
	}
	defer root.Close()
	// O_NONBLOCK: a FIFO swapped in for the directory must not hang the open.
	d, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", fmt.Errorf("%s cannot be opened: %v", quoteName(p), unwrapPath(err))
	}
	defer d.Close()
	if fi, err := d.Stat(); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s is a file, not a directory; read it with read_file", quoteName(p))
	}
	entries, err := d.ReadDir(-1)
	if err != nil {
		return "", fmt.Errorf("%s cannot be listed: %v", quoteName(p), unwrapPath(err))
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if len(entries) == 0 {
		return "(empty directory)", nil
	}
	var b strings.Builder
	for i, e := range entries {
		if i == maxListEntries {
			fmt.Fprintf(&b, "… and %d more\n", len(entries)-i)
			break
		}
		b.WriteString(quoteName(e.Name()))
		switch {
		case e.IsDir():
			b.WriteByte('/')
		case e.Type()&fs.ModeSymlink != 0:
			b.WriteByte('@')
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// builtinReadFile returns a regular text file's first max_bytes (at most maxReadBytes) bytes,
// cut on a rune boundary, with a note of the total size when that is not all of it.
func builtinReadFile(ctx context.Context, r *Registry, args map[string]any) (string, error) {
	p := stringArg(args, "path", "")
	limit := min(intArg(args, "max_bytes", maxReadBytes), maxReadBytes)
	root, rel, err := r.openWithin(p)
	if err != nil {
		return "", err
	}
	defer root.Close()
	f, fi, err := openRegular(root, rel, p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var read bytes.Buffer
	read.Grow(int(min(limit, max(fi.Size(), 0))) + bytes.MinRead) // one allocation
	_, err = read.ReadFrom(io.LimitReader(f, limit))
	buf := read.Bytes()
	if err != nil {
		return "", fmt.Errorf("%s cannot be read: %v", quoteName(p), unwrapPath(err))
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if isBinary(buf) {
		return "", fmt.Errorf("%s is a binary file (%d bytes); read_file returns only text", quoteName(p), fi.Size())
	}
	if len(buf) == 0 {
		return "(empty file)", nil
	}
	if int64(len(buf)) < fi.Size() {
		buf = trimPartialRuneEnd(buf)
		return fmt.Sprintf("%s\n… [read_file showed the first %d of %d bytes]", buf, len(buf), fi.Size()), nil
	}
	return string(buf), nil
}

// openRegular opens rel under root for reading without blocking, and returns it only if the
// opened file is a regular one: a FIFO, device or socket (even one swapped in after a listing
// said "file") is refused without a read. shown is the path as the model gave it.
func openRegular(root *os.Root, rel, shown string) (*os.File, fs.FileInfo, error) {
	// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("%s cannot be opened: %v", quoteName(shown), unwrapPath(err))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s cannot be read: %v", quoteName(shown), unwrapPath(err))
	}
	switch {
	case fi.IsDir():
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory; list it with list_dir", quoteName(shown))
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file (a device, pipe or socket); read_file reads only files", quoteName(shown))
	}
	return f, fi, nil
}

// isBinary reports whether data looks binary: a NUL byte among its first binarySniffSize bytes.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniffSize)], 0) >= 0
}

// unwrapPath drops the *PathError wrapper, whose path is root-relative and would confuse.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
