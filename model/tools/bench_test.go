package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRunNow is the whole Run path of the cheapest built-in: lookup, argument parsing,
// schema validation, the tool, Clean.
func BenchmarkRunNow(b *testing.B) {
	r := newTestRegistry(b, "")
	ctx := context.Background()
	for b.Loop() {
		r.Run(ctx, Call{Name: "now", Arguments: `{}`})
	}
}

// BenchmarkValidateArgs is argument parsing and validation alone.
func BenchmarkValidateArgs(b *testing.B) {
	r := newTestRegistry(b, "")
	sch := r.lookup("read_file").schema
	for b.Loop() {
		args, err := callArgs(Call{Arguments: `{"path": "docs/README.md", "max_bytes": 4096}`})
		if err != nil || sch.Validate(args.Object) != nil {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkRunReadFile10KiB(b *testing.B) {
	r := newTestRegistry(b, "")
	writeFile(b, filepath.Join(r.Root(), "f.txt"), strings.Repeat("0123456789abcdef\n", 10<<10/17))
	ctx := context.Background()
	b.SetBytes(10 << 10)
	for b.Loop() {
		if res := r.Run(ctx, Call{Name: "read_file", Arguments: `{"path": "f.txt"}`}); res.IsError {
			b.Fatal(res.Output)
		}
	}
}

// BenchmarkSearchFiles searches 200 files of 100 lines (about 1 MiB) for a rare string.
func BenchmarkSearchFiles(b *testing.B) {
	r := newTestRegistry(b, "")
	line := strings.Repeat("lorem ipsum dolor sit amet ", 2) + "\n"
	for i := range 200 {
		body := strings.Repeat(line, 99) + fmt.Sprintf("needle %d\n", i)
		writeFile(b, filepath.Join(r.Root(), fmt.Sprintf("d%d", i%10), fmt.Sprintf("f%d.txt", i)), body)
	}
	ctx := context.Background()
	b.SetBytes(200 * 100 * int64(len(line)))
	for b.Loop() {
		if res := r.Run(ctx, Call{Name: "search_files", Arguments: `{"pattern": "needle"}`}); res.IsError {
			b.Fatal(res.Output)
		}
	}
}

// BenchmarkRunCommand is the cost of running a command tool that does nothing: pipes, a
// process group, start, wait, the group kill.
func BenchmarkRunCommand(b *testing.B) {
	r := newTestRegistry(b, "")
	addTools(b, r, `[[tool]]
name = "nothing"
description = "d"
argv = ["/bin/true"]
side_effects = false`)
	ctx := context.Background()
	for b.Loop() {
		if res := r.Run(ctx, Call{Name: "nothing", Arguments: `{"a": 1}`}); res.IsError {
			b.Fatal(res.Output)
		}
	}
}

// BenchmarkHeadTail writes 1 MiB in 4 KiB pieces through the 32 KiB output cap.
func BenchmarkHeadTail(b *testing.B) {
	chunk := []byte(strings.Repeat("héllo wörld\n", 4096/13))
	b.SetBytes(256 * int64(len(chunk)))
	for b.Loop() {
		w := newHeadTail(DefaultMaxOutput)
		for range 256 {
			w.Write(chunk)
		}
		_ = w.String()
	}
}

func BenchmarkDescribe(b *testing.B) {
	r := newTestRegistry(b, "")
	call := Call{Name: "read_file", Arguments: `{"path": "docs/README.md", "max_bytes": 4096, "opts": {"a": [1, 2]}}`}
	for b.Loop() {
		r.Describe(call)
	}
}
