package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
)

// The built-ins: read-only, confined to the registry's root, with bounded output.
const (
	maxListEntries  = 500
	maxReadBytes    = 64 << 10
	maxMatches      = 200
	maxMatchLine    = 300     // bytes of a matching line shown
	maxSearchedFile = 4 << 20 // larger files are skipped by search_files
	binarySniffSize = 8000    // a NUL byte in this many leading bytes marks a file as binary

	// maxBuiltinOutput is a backstop above the bounds of each built-in (a read_file answer
	// fits in it): it only cuts pathological listings, such as 500 very long names.
	maxBuiltinOutput = maxReadBytes + 16<<10
)

type builtinSpec struct {
	name, description, schema string
	run                       builtinFunc
}

var builtinSpecs = []builtinSpec{
	{"now", "The current local date and time (RFC 3339) and the name of the time zone.",
		`{"type":"object","properties":{},"additionalProperties":false}`, builtinNow},
	{"list_dir", "List a directory inside the working directory: one entry per line, sorted by name; " +
		"directories end in /, symbolic links in @.",
		`{"type":"object","properties":{"path":{"type":"string","description":"A directory, relative to the working directory. Default: \".\""}},"additionalProperties":false}`,
		builtinListDir},
	{"read_file", "Read a text file inside the working directory (at most 64 KiB; binary files are refused).",
		`{"type":"object","properties":{"path":{"type":"string","description":"A file, relative to the working directory."},` +
			`"max_bytes":{"type":"integer","minimum":1,"description":"Read at most this many bytes (at most 65536)."}},` +
			`"required":["path"],"additionalProperties":false}`,
		builtinReadFile},
	{"search_files", "Find lines containing a literal string in the text files under a path inside the working directory; " +
		"prints file:line: text. Skips .git, binary files and files over 4 MiB; stops after 200 matches.",
		`{"type":"object","properties":{"pattern":{"type":"string","minLength":1,"description":"The literal text to find (not a regular expression)."},` +
			`"path":{"type":"string","description":"A directory or file, relative to the working directory. Default: \".\""},` +
			`"ignore_case":{"type":"boolean","description":"Match regardless of letter case. Default: false"}},` +
			`"required":["pattern"],"additionalProperties":false}`,
		builtinSearchFiles},
}

// builtins compiles the built-in definitions.
func builtins() []Tool {
	tools := make([]Tool, len(builtinSpecs))
	for i, b := range builtinSpecs {
		sch, params, err := compileSchema([]byte(b.schema))
		if err != nil {
			panic(fmt.Sprintf("tools: built-in %s: %v", b.name, err)) // a defect, caught by every test
		}
		tools[i] = Tool{name: b.name, description: b.description, parameters: params, schema: sch,
			timeout: DefaultTimeout, builtin: b.run}
	}
	return tools
}

// isBuiltin reports whether name is taken by a built-in.
func isBuiltin(name string) bool {
	for _, b := range builtinSpecs {
		if b.name == name {
			return true
		}
	}
	return false
}

// builtinNow answers like 2026-11-29T12:10:35+00:00 (UTC): RFC 3339 with a numeric offset even
// for UTC (time.RFC3339 would write Z), then the zone's abbreviation, or its offset when it
// has none.
func builtinNow(_ context.Context, r *Registry, _ map[string]any) (string, error) {
	t := r.now()
	zone, _ := t.Zone()
	if zone == "" {
		zone = t.Format("-0700")
	}
	return fmt.Sprintf("%s (%s)", t.Format("2006-01-02T15:04:05-07:00"), zone), nil
}

// stringArg returns the validated string argument key, or def when it is absent.
func stringArg(args map[string]any, key, def string) string {
	if s, ok := args[key].(string); ok {
		return s
	}
	return def
}

// intArg returns the validated integer argument key (1000 and 1e3 alike), or def when it is
// absent. Values beyond int64 are clamped.
func intArg(args map[string]any, key string, def int64) int64 {
	n, ok := args[key].(json.Number)
	if !ok {
		return def
	}
	f, err := n.Float64()
	if err != nil {
		return def
	}
	return int64(math.Max(math.Min(f, math.MaxInt64/2), math.MinInt64/2))
}

func boolArg(args map[string]any, key string) bool {
	b, _ := args[key].(bool)
	return b
}
