package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
	if fi, err := root.Stat(rel); err == nil && !fi.IsDir() {
		return "", fmt.Errorf("%s is a file, not a directory; read it with read_file", quoteName(p))
	}
	entries, err := fs.ReadDir(root.FS(), rel)
	if err != nil {
		return "", fmt.Errorf("%s cannot be listed: %v", quoteName(p), unwrapPath(err))
	}
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
	// O_NONBLOCK: opening a FIFO must not hang; it is refused below as not a regular file.
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", fmt.Errorf("%s cannot be opened: %v", quoteName(p), unwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("%s cannot be read: %v", quoteName(p), unwrapPath(err))
	}
	switch {
	case fi.IsDir():
		return "", fmt.Errorf("%s is a directory; list it with list_dir", quoteName(p))
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file (a device, pipe or socket); read_file reads only files", quoteName(p))
	}
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
