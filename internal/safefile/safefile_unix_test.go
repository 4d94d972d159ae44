//go:build unix

package safefile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// specials makes, in a fresh directory, one path of each kind a reader or writer must refuse.
func specials(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{
		"fifo":           filepath.Join(dir, "fifo"),
		"socket":         filepath.Join(dir, "sock"),
		"directory":      filepath.Join(dir, "dir"),
		"link to device": filepath.Join(dir, "zero"),
		"link to fifo":   filepath.Join(dir, "tofifo"),
	}
	if err := syscall.Mkfifo(paths["fifo"], 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", paths["socket"])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := os.Mkdir(paths["directory"], 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", paths["link to device"]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(paths["fifo"], paths["link to fifo"]); err != nil {
		t.Fatal(err)
	}
	return paths
}

func TestReadingRefusesEverySpecialFileWithoutWaiting(t *testing.T) {
	for name, path := range specials(t) {
		t.Run(name, func(t *testing.T) {
			_, err := ReadFile(path, 1<<20)
			if !errors.Is(err, ErrNotRegular) {
				t.Fatalf("ReadFile(%s) = %v, want a refusal matching ErrNotRegular", name, err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("the refusal %q does not name the path", err)
			}
		})
	}
}

func TestReadingFollowsALinkToARegularFile(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.toml")
	os.WriteFile(real, []byte("model = \"x\"\n"), 0o600)
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	data, err := ReadFile(link, 1<<10)
	if err != nil || string(data) != "model = \"x\"\n" {
		t.Fatalf("ReadFile through a link = %q, %v", data, err)
	}
}

func TestReadingRefusesAFileOverItsLimitAndReadsAtTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, bytes.Repeat([]byte("a"), 100), 0o600)
	if data, err := ReadFile(path, 100); err != nil || len(data) != 100 {
		t.Fatalf("ReadFile at its limit = %d bytes, %v", len(data), err)
	}
	_, err := ReadFile(path, 99)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "99 bytes") {
		t.Fatalf("ReadFile over its limit = %v, want ErrTooLarge naming the limit", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file gives %v, want fs.ErrNotExist", err)
	}
}

func TestLimitStopsAnEndlessReaderAtTheLimit(t *testing.T) {
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	counted := &countingReader{r: zero}
	data, err := io.ReadAll(Limit(counted, 64<<10, "the answer"))
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the answer is larger than 64 KiB") {
		t.Fatalf("Limit over an endless reader = %v", err)
	}
	if len(data) != 64<<10 || counted.n != 64<<10+1 {
		t.Fatalf("gave %d bytes and read %d, want %d and one more", len(data), counted.n, 64<<10)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestWritingRefusesLinksAndSpecialFilesAndLeavesThemAlone(t *testing.T) {
	paths := specials(t)
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	os.WriteFile(profile, []byte("export PATH=/usr/bin\n"), 0o644)
	paths["hard link"] = filepath.Join(dir, "hard.log")
	if err := os.Link(profile, paths["hard link"]); err != nil {
		t.Fatal(err)
	}
	paths["link to file"] = filepath.Join(dir, "soft.log")
	os.Symlink(profile, paths["link to file"])
	for _, open := range []struct {
		name string
		fn   func(string) (*os.File, error)
	}{{"Create", Create}, {"OpenAppend", OpenAppend}} {
		for name, path := range paths {
			t.Run(open.name+"/"+name, func(t *testing.T) {
				f, err := open.fn(path)
				if err == nil {
					f.Close()
					t.Fatalf("%s(%s) opened it", open.name, name)
				}
				if !errors.Is(err, ErrNotRegular) && !errors.Is(err, ErrSymlink) && !errors.Is(err, ErrHardLinked) {
					t.Fatalf("%s(%s) = %v, want a refusal by kind", open.name, name, err)
				}
			})
		}
	}
	if data, _ := os.ReadFile(profile); string(data) != "export PATH=/usr/bin\n" {
		t.Fatalf("the linked file was changed: %q", data)
	}
}

func TestCreateMakesAPrivateFileAndTruncatesAnOwnOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.log")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("first run, a long line\n")
	f.Close()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("created with mode %v, want 0600", fi.Mode().Perm())
	}
	f, err = Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("second\n")
	f.Close()
	if data, _ := os.ReadFile(path); string(data) != "second\n" {
		t.Fatalf("after a second Create the file holds %q", data)
	}
	a, err := OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	a.WriteString("more\n")
	a.Close()
	if data, _ := os.ReadFile(path); string(data) != "second\nmore\n" {
		t.Fatalf("after OpenAppend the file holds %q", data)
	}
}
