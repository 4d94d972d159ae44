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
		if err != nil || sch.validate(args.Object) != nil {
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

// mcpToolSchema is a tool's input schema as zod-to-json-schema writes it for a TypeScript MCP
// server (draft-07, additionalProperties false, enums, a nested object, a nullable field, an
// internal $ref).
const mcpToolSchema = `{
	"type": "object",
	"properties": {
		"query": {"type": "string", "minLength": 1, "description": "What to search for"},
		"limit": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100, "default": 10},
		"sort": {"type": "string", "enum": ["relevance", "date", "stars"], "default": "relevance"},
		"filters": {
			"type": "object",
			"properties": {
				"language": {"type": "string"},
				"since": {"type": "string", "format": "date-time"},
				"tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9-]+$"}, "maxItems": 20}
			},
			"additionalProperties": false
		},
		"cursor": {"anyOf": [{"type": "string"}, {"type": "null"}]},
		"include": {"type": "array", "items": {"$ref": "#/definitions/field"}, "uniqueItems": true},
		"mode": {"oneOf": [
			{"type": "object", "properties": {"kind": {"type": "string", "const": "fast"}}, "required": ["kind"], "additionalProperties": false},
			{"type": "object", "properties": {"kind": {"type": "string", "const": "deep"}, "depth": {"type": "number"}}, "required": ["kind", "depth"], "additionalProperties": false}
		]}
	},
	"required": ["query"],
	"additionalProperties": false,
	"definitions": {"field": {"type": "string", "enum": ["title", "body", "author", "url"]}},
	"$schema": "http://json-schema.org/draft-07/schema#"
}`

const mcpToolArgs = `{"query": "frame pacing", "limit": 20, "sort": "date", "filters": {"language": "go", "tags": ["tui", "perf"]},
	"cursor": null, "include": ["title", "url"], "mode": {"kind": "deep", "depth": 2}}`

func BenchmarkCompileMCPTool(b *testing.B) {
	for b.Loop() {
		if _, _, err := compileSchema([]byte(mcpToolSchema)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateMCPTool(b *testing.B) {
	sch, _, err := compileSchema([]byte(mcpToolSchema))
	if err != nil {
		b.Fatal(err)
	}
	args, err := callArgs(Call{Arguments: mcpToolArgs})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := sch.validate(args.Object); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRejectMCPTool is the cost of a rejection: the library's, then the words.
func BenchmarkRejectMCPTool(b *testing.B) {
	sch, _, err := compileSchema([]byte(mcpToolSchema))
	if err != nil {
		b.Fatal(err)
	}
	args, err := callArgs(Call{Arguments: `{"query": "", "limit": 0, "mode": {"kind": "deep"}}`})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := sch.validate(args.Object); err == nil {
			b.Fatal("valid")
		}
	}
}

// BenchmarkBuiltins is the built-ins' schemas compiled, as every NewRegistry does.
func BenchmarkBuiltins(b *testing.B) {
	for b.Loop() {
		builtins()
	}
}
