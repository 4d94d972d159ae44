//go:build unix

package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestNow(t *testing.T) {
	r := newTestRegistry(t, "")
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{fixedNow, "2026-11-29T12:10:35+00:00 (UTC)"},
		{fixedNow.In(time.FixedZone("CET", 3600)), "2026-11-29T13:10:35+01:00 (CET)"},
		{fixedNow.In(time.FixedZone("", -5*3600-30*60)), "2026-11-29T06:40:35-05:30 (-0530)"},
	} {
		r.Now = func() time.Time { return tc.at }
		res := run(t, r, "now", "")
		wantOutcome(t, res, OutcomeOK)
		if res.Output != tc.want {
			t.Errorf("now = %q, want %q", res.Output, tc.want)
		}
	}
	wantOutcome(t, run(t, r, "now", `{"zone": "UTC"}`), OutcomeRejected)
}

// confinedTree builds a root with a file, a subdirectory, and symlinks inside and out, and an
// outside directory holding a secret. It returns the registry and the outside directory.
func confinedTree(t *testing.T) (*Registry, string) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "SECRET outside\n")
	r := newTestRegistry(t, "")
	root := r.Root()
	writeFile(t, filepath.Join(root, "inside.txt"), "hello inside\n")
	writeFile(t, filepath.Join(root, "sub", "deep.txt"), "deep hello\n")
	for link, target := range map[string]string{
		"out-file":    filepath.Join(outside, "secret.txt"),
		"out-dir":     outside,
		"rel-out":     "../" + filepath.Base(outside) + "/secret.txt",
		"in-file":     "inside.txt",
		"sub/up-file": "../inside.txt",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return r, outside
}

func TestBuiltinsRefusePathsOutsideTheRoot(t *testing.T) {
	r, outside := confinedTree(t)
	escapes := []string{
		"..", "../", "../" + filepath.Base(outside) + "/secret.txt", "sub/../../x", "sub/../..",
		filepath.Join(outside, "secret.txt"), outside, "/etc/passwd", "/",
		"out-file", "out-dir", "out-dir/secret.txt", "rel-out",
	}
	for _, p := range escapes {
		for _, tool := range []string{"read_file", "list_dir", "search_files"} {
			args := fmt.Sprintf(`{"path": %q, "pattern": "SECRET"}`, p)
			if tool != "search_files" {
				args = fmt.Sprintf(`{"path": %q}`, p)
			}
			res := run(t, r, tool, args)
			if res.Outcome != OutcomeFailed || !strings.Contains(res.Output, "outside the working directory") {
				t.Errorf("%s %q: %s: %q", tool, p, res.Outcome, res.Output)
			}
			if strings.Contains(res.Output, "SECRET") {
				t.Errorf("%s %q leaked the secret", tool, p)
			}
		}
	}
}

func TestBuiltinsUsePathsInsideTheRoot(t *testing.T) {
	r, _ := confinedTree(t)
	for _, tc := range []struct{ tool, args, want string }{
		{"read_file", `{"path": "inside.txt"}`, "hello inside\n"},
		{"read_file", `{"path": "./sub/../inside.txt"}`, "hello inside\n"},
		{"read_file", fmt.Sprintf(`{"path": %q}`, filepath.Join(r.Root(), "inside.txt")), "hello inside\n"},
		{"read_file", `{"path": "in-file"}`, "hello inside\n"},     // a link inside to inside
		{"read_file", `{"path": "sub/up-file"}`, "hello inside\n"}, // .. through a link, still inside
		{"list_dir", `{"path": "sub"}`, "deep.txt\nup-file@"},
		{"search_files", `{"pattern": "hello"}`, "inside.txt:1: hello inside\nsub/deep.txt:1: deep hello"},
	} {
		res := run(t, r, tc.tool, tc.args)
		if res.Outcome != OutcomeOK || res.Output != tc.want {
			t.Errorf("%s %s: %s %q, want %q", tc.tool, tc.args, res.Outcome, res.Output, tc.want)
		}
	}
}

func TestSearchDoesNotFollowLinksOutOfTheRoot(t *testing.T) {
	r, _ := confinedTree(t)
	res := run(t, r, "search_files", `{"pattern": "secret", "ignore_case": true}`)
	if strings.Contains(res.Output, "SECRET") || res.Outcome != OutcomeOK {
		t.Fatalf("%s: %q", res.Outcome, res.Output)
	}
}

func TestListDir(t *testing.T) {
	r := newTestRegistry(t, "")
	root := r.Root()
	for _, name := range []string{"b.txt", "a.txt", "Z.md", "dir/x", "line\nbreak"} {
		writeFile(t, filepath.Join(root, name), "x")
	}
	os.Mkdir(filepath.Join(root, "empty"), 0o755)
	os.Symlink("a.txt", filepath.Join(root, "link"))
	for i := range 503 {
		writeFile(t, filepath.Join(root, "many", fmt.Sprintf("f%03d", i)), "")
	}
	for _, tc := range []struct {
		args, want string
		outcome    Outcome
	}{
		{`{}`, "Z.md\na.txt\nb.txt\ndir/\nempty/\n\"line\\nbreak\"\nlink@\nmany/", OutcomeOK},
		{`{"path": "."}`, "Z.md\na.txt\nb.txt\ndir/\nempty/\n\"line\\nbreak\"\nlink@\nmany/", OutcomeOK},
		{`{"path": "empty"}`, "(empty directory)", OutcomeOK},
		{`{"path": "a.txt"}`, "a.txt is a file, not a directory; read it with read_file", OutcomeFailed},
		{`{"path": "nope"}`, "nope does not exist in the working directory", OutcomeFailed},
		{`"dir"`, `invalid arguments for list_dir: unexpected property "value"`, OutcomeRejected},
	} {
		res := run(t, r, "list_dir", tc.args)
		if res.Outcome != tc.outcome || res.Output != tc.want {
			t.Errorf("list_dir %s: %s %q, want %s %q", tc.args, res.Outcome, res.Output, tc.outcome, tc.want)
		}
	}
	res := run(t, r, "list_dir", `{"path": "many"}`)
	lines := strings.Split(res.Output, "\n")
	if len(lines) != 501 || lines[0] != "f000" || lines[499] != "f499" || lines[500] != "… and 3 more" {
		t.Errorf("capped listing: %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

func TestReadFile(t *testing.T) {
	r := newTestRegistry(t, "")
	root := r.Root()
	writeFile(t, filepath.Join(root, "text.md"), "# Title\nbody\n")
	writeFile(t, filepath.Join(root, "empty"), "")
	writeFile(t, filepath.Join(root, "image.png"), "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	// 'é' is two bytes; 65536 is even, so an odd prefix makes the cap fall inside a rune.
	big := "x" + strings.Repeat("é", 40000)
	writeFile(t, filepath.Join(root, "big.txt"), big)
	os.Mkdir(filepath.Join(root, "dir"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args, want string
		outcome    Outcome
	}{
		{`{"path": "text.md"}`, "# Title\nbody\n", OutcomeOK},
		{`{"path": "text.md", "max_bytes": 7}`, "# Title\n… [read_file showed the first 7 of 13 bytes]", OutcomeOK},
		{`{"path": "empty"}`, "(empty file)", OutcomeOK},
		{`{"path": "image.png"}`, "image.png is a binary file (16 bytes); read_file returns only text", OutcomeFailed},
		{`{"path": "dir"}`, "dir is a directory; list it with list_dir", OutcomeFailed},
		{`{"path": "fifo"}`, "fifo is not a regular file (a device, pipe or socket); read_file reads only files", OutcomeFailed},
		{`{"path": "missing.md"}`, "missing.md does not exist in the working directory", OutcomeFailed},
		{`{}`, `invalid arguments for read_file: missing property "path"`, OutcomeRejected},
		{`{"path": "text.md", "max_bytes": 0}`, `invalid arguments for read_file: at "/max_bytes": minimum: got 0, want 1`, OutcomeRejected},
		{`{"path": "text.md", "max_bytes": "10"}`, `invalid arguments for read_file: at "/max_bytes": want integer, got string`, OutcomeRejected},
	} {
		res := run(t, r, "read_file", tc.args)
		if res.Outcome != tc.outcome || res.Output != tc.want {
			t.Errorf("read_file %s: %s %q, want %s %q", tc.args, res.Outcome, res.Output, tc.outcome, tc.want)
		}
	}
	res := run(t, r, "read_file", `{"path": "big.txt", "max_bytes": 1000000}`)
	body, note, ok := strings.Cut(res.Output, "\n… [read_file showed the first ")
	if !ok || note != fmt.Sprintf("65535 of %d bytes]", len(big)) || body != big[:65535] {
		t.Errorf("big file: note %q, body %d bytes", note, len(body))
	}
}

func TestSearchFiles(t *testing.T) {
	r := newTestRegistry(t, "")
	root := r.Root()
	writeFile(t, filepath.Join(root, "a.go"), "package a\n// TODO: one\nfunc f() {}\r\n// todo: two\r\n")
	writeFile(t, filepath.Join(root, "sub", "b.txt"), "nothing\nTODO three\n")
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "TODO in git\n")
	writeFile(t, filepath.Join(root, "blob.bin"), "TODO\x00binary\n")
	writeFile(t, filepath.Join(root, "long.txt"), "TODO "+strings.Repeat("y", 1000)+"\n")
	writeFile(t, filepath.Join(root, "huge.log"), strings.Repeat("TODO huge\n", maxSearchedFile/10+1))
	var many strings.Builder
	for range maxMatches + 5 {
		many.WriteString("needle\n")
	}
	writeFile(t, filepath.Join(root, "many", "m.txt"), many.String())

	longLine := "long.txt:1: TODO " + strings.Repeat("y", maxMatchLine-5) + "…"
	for _, tc := range []struct {
		args, want string
	}{
		{`{"pattern": "TODO"}`, "a.go:2: // TODO: one\n" + longLine + "\nsub/b.txt:2: TODO three\n[skipped 1 files over 4 MiB]"},
		{`{"pattern": "todo", "ignore_case": true, "path": "a.go"}`, "a.go:2: // TODO: one\na.go:4: // todo: two"},
		{`{"pattern": "TODO", "path": "sub"}`, "sub/b.txt:2: TODO three"},
		{`{"pattern": "absent"}`, `no lines contain "absent" under .` + "\n[skipped 1 files over 4 MiB]"},
	} {
		res := run(t, r, "search_files", tc.args)
		if res.Outcome != OutcomeOK || res.Output != tc.want {
			t.Errorf("search_files %s: %s\n%q\nwant\n%q", tc.args, res.Outcome, res.Output, tc.want)
		}
	}
	res := run(t, r, "search_files", `{"pattern": "needle", "path": "many"}`)
	lines := strings.Split(res.Output, "\n")
	if len(lines) != maxMatches+1 || lines[maxMatches-1] != "many/m.txt:200: needle" ||
		lines[maxMatches] != "[search stopped after 200 matches; narrow the pattern or the path]" {
		t.Errorf("capped search: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	wantOutcome(t, run(t, r, "search_files", `{"pattern": ""}`), OutcomeRejected)
}

func TestBuiltinOutputHasABackstopCap(t *testing.T) {
	r := newTestRegistry(t, "")
	for i := range 510 {
		name := fmt.Sprintf("%03d", i) + strings.Repeat("n", 240)
		writeFile(t, filepath.Join(r.Root(), "long", name), "")
	}
	res := run(t, r, "list_dir", `{"path": "long"}`)
	wantOutcome(t, res, OutcomeOK)
	if len(res.Output) > maxBuiltinOutput+64 || !strings.Contains(res.Output, " bytes omitted] …\n") ||
		!strings.HasPrefix(res.Output, "000nnn") || !strings.HasSuffix(res.Output, "\n… and 10 more") {
		t.Fatalf("%d bytes, start %q, end %q", len(res.Output), res.Output[:10], res.Output[len(res.Output)-20:])
	}
}
