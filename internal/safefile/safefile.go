package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

var (
	// ErrNotRegular is the cause of a refusal of anything but a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrSymlink is the cause of a refusal to write through a symbolic link.
	ErrSymlink = errors.New("a symbolic link")
	// ErrHardLinked is the cause of a refusal to write a file that has other hard links.
	ErrHardLinked = errors.New("a file with other hard links")
	// ErrTooLarge is the cause of a refusal of a file or stream longer than its limit.
	ErrTooLarge = errors.New("too large")
)

// Open opens the regular file at path for reading (see the package doc for what is refused).
// Errors name the path.
func Open(path string) (*os.File, error) {
	if fi, err := os.Stat(path); err == nil {
		if err := regular(path, fi); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|readFlags, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = regular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file at path whole, refusing one longer than limit bytes with an
// error matching ErrTooLarge. A missing file gives an error matching fs.ErrNotExist.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(512)
	if fi, err := f.Stat(); err == nil && fi.Size() < limit {
		size = fi.Size() + 1
	}
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, tooLarge(path, limit)
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", path, err)
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// Limit returns a reader of r that fails with an error matching ErrTooLarge, naming what, once
// r has given more than limit bytes; it never reads more than limit+1 bytes of r.
func Limit(r io.Reader, limit int64, what string) io.Reader {
	return &limited{r: r, left: limit + 1, limit: limit, what: what}
}

type limited struct {
	r           io.Reader
	left, limit int64
	what        string
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, tooLarge(l.what, l.limit)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left <= 0 {
		return n - 1, tooLarge(l.what, l.limit)
	}
	return n, err
}

// Create opens the file at path for writing from its start, creating it with mode 0600; an
// existing file is truncated only once it is known to be a regular file with no other link.
func Create(path string) (*os.File, error) {
	f, err := OpenWrite(path)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return f, nil
}

// OpenWrite opens the file at path for reading and writing in place, creating it with mode 0600.
func OpenWrite(path string) (*os.File, error) {
	return openForWriting(path, os.O_RDWR)
}

// OpenAppend opens the file at path for reading and appending, creating it with mode 0600.
func OpenAppend(path string) (*os.File, error) {
	return openForWriting(path, os.O_RDWR|os.O_APPEND)
}

func openForWriting(path string, flag int) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil {
		if err := writable(path, fi); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, flag|os.O_CREATE|writeFlags, 0o600)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is %w; phasechat does not write through links (give the real path)", path, ErrSymlink)
		}
		return nil, openError(path, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = writable(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// writable refuses what a write must not go to: a link, anything but a regular file, a file
// with other hard links.
func writable(path string, fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is %w; phasechat does not write through links (give the real path)", path, ErrSymlink)
	}
	if err := regular(path, fi); err != nil {
		return err
	}
	if n := links(fi); n > 1 {
		return fmt.Errorf("%s is %w (%d names share it), so writing it would change another file; give a new file: %w", path, ErrHardLinked, n, fs.ErrPermission)
	}
	return nil
}

func regular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s is %s, %w", path, kind(fi.Mode()), ErrNotRegular)
}

// kind names a file's type in words.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

func tooLarge(what string, limit int64) error {
	return fmt.Errorf("%s is larger than %s, %w to read", what, Size(limit), ErrTooLarge)
}

// Size writes n bytes in the largest binary unit that divides it (64 KiB, 256 MiB).
func Size(n int64) string {
	for _, u := range []struct {
		name  string
		bytes int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.bytes && n%u.bytes == 0 {
			return fmt.Sprintf("%d %s", n/u.bytes, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// openError words a failed open; a socket (which cannot be opened) is named as such.
func openError(path string, err error) error {
	if fi, serr := os.Stat(path); serr == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, %w", path, kind(fi.Mode()), ErrNotRegular)
	}
	return err // *fs.PathError names the path
}

// MaxConfigSize bounds every configuration file phasechat reads (the config, an MCP or tools
// file): a longer one is refused.
const MaxConfigSize = 1 << 20
