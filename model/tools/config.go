package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/phasechat/phasechat/internal/ident"
	"github.com/phasechat/phasechat/internal/safefile"
)

// validName reports whether name is what OpenAI accepts as a function name: 1 to 64 ASCII
// letters, digits, _ and -.
func validName(name string) bool { return ident.Valid(name, 64, "_-") }

// toolKeys are the keys of a [[tool]] table, in the order the docs list them.
var toolKeys = []string{"name", "description", "argv", "side_effects", "timeout", "parameters"}

// ConfigError is one problem in a tools file, located as precisely as the file allows.
type ConfigError struct {
	File    string
	Index   int    // the tool's position in the file, from 1; 0 for a problem with the whole file
	Tool    string // the tool's name, when it has a usable one
	Field   string // the key at fault, e.g. "argv"; "" when it is not one key
	Problem string // what is wrong and what to do, in words
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Tool != "":
		fmt.Fprintf(&b, ": tool %q (#%d)", e.Tool, e.Index)
	case e.Index > 0:
		fmt.Fprintf(&b, ": tool #%d", e.Index)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	return b.String() + ": " + e.Problem
}

// LoadFile reads and checks a tools file (the format is in the package doc). A missing file
// gives an error matching fs.ErrNotExist. Otherwise every problem found is reported, joined,
// each a *ConfigError naming the file, the tool and the field.
func LoadFile(path string) ([]Tool, error) {
	data, err := safefile.ReadFile(path, safefile.MaxConfigSize)
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err) // the error names the path
	}
	return Parse(data, path)
}

// Parse checks the tools file text data, naming it file in errors, and compiles its tools.
func Parse(data []byte, file string) ([]Tool, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, &ConfigError{File: file, Problem: "not valid TOML: " + strings.TrimPrefix(err.Error(), "toml: ")}
	}
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(doc)) {
		if key != "tool" {
			errs = append(errs, &ConfigError{File: file, Field: key, Problem: "unknown key; declare each tool in its own [[tool]] table"})
		}
	}
	var entries []map[string]any
	switch v := doc["tool"].(type) {
	case nil:
	case []map[string]any:
		entries = v
	default:
		errs = append(errs, &ConfigError{File: file, Field: "tool", Problem: "must be an array of tables; declare each tool in its own [[tool]] table"})
	}
	var tools []Tool
	seen := make(map[string]int)
	for i, entry := range entries {
		t, problems := parseTool(entry)
		for _, p := range problems {
			p.File, p.Index, p.Tool = file, i+1, t.name
			errs = append(errs, p)
		}
		if len(problems) > 0 {
			continue
		}
		if first, dup := seen[t.name]; dup {
			errs = append(errs, &ConfigError{File: file, Index: i + 1, Tool: t.name, Field: "name",
				Problem: fmt.Sprintf("already used by tool #%d; names must be unique", first)})
			continue
		}
		seen[t.name] = i + 1
		tools = append(tools, t)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...) // in file order: the whole file's problems, then each tool's
	}
	return tools, nil
}

// parseTool reads one [[tool]] table. Its problems carry Field and Problem only.
func parseTool(entry map[string]any) (Tool, []*ConfigError) {
	var problems []*ConfigError
	bad := func(field, format string, args ...any) {
		problems = append(problems, &ConfigError{Field: field, Problem: fmt.Sprintf(format, args...)})
	}
	t := Tool{timeout: DefaultTimeout}
	for _, key := range slices.Sorted(maps.Keys(entry)) {
		if !slices.Contains(toolKeys, key) {
			bad(key, "unknown key; the keys are %s", strings.Join(toolKeys, ", "))
		}
	}

	name, ok := entry["name"].(string)
	switch {
	case !ok:
		bad("name", "missing or not a string; give the tool a name of 1-64 letters, digits, _ or -")
	case !validName(name):
		bad("name", "%q is not a valid name: use 1-64 letters, digits, _ or - (what OpenAI accepts)", name)
	case isBuiltin(name):
		bad("name", "%q is the name of a built-in tool; choose another", name)
	default:
		t.name = name
	}

	if d, ok := entry["description"].(string); !ok || strings.TrimSpace(d) == "" {
		bad("description", "missing; say what the tool does, for the model to read")
	} else {
		t.description = d
	}

	argv, ok := entry["argv"].([]any)
	if !ok || len(argv) == 0 {
		bad("argv", `missing or not a list; give the program and its fixed arguments, e.g. ["git", "status"] (no shell is involved)`)
	}
	for i, a := range argv {
		s, ok := a.(string)
		if !ok || (i == 0 && s == "") || strings.ContainsRune(s, 0) {
			bad("argv", "item %d must be a non-empty string without NUL bytes", i)
			break
		}
		t.argv = append(t.argv, s)
	}

	if se, ok := entry["side_effects"].(bool); ok {
		t.sideEffects = se
	} else {
		bad("side_effects", "missing or not true/false; say true if the tool may change anything (the chat then asks before running it), false if it only reads")
	}

	if v, present := entry["timeout"]; present {
		s, _ := v.(string)
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			bad("timeout", `must be a positive duration such as "10s" or "2m"`)
		}
		t.timeout = d
	}

	params := []byte(emptyObjectSchema)
	switch v := entry["parameters"].(type) {
	case nil:
	case string:
		params = []byte(v)
	case map[string]any:
		var err error
		if params, err = json.Marshal(v); err != nil {
			bad("parameters", "cannot be written as JSON (%v); use only strings, numbers, booleans, arrays and tables", err)
		}
	default:
		bad("parameters", "must be a JSON Schema, as a TOML table or as a string of JSON")
		params = nil
	}
	if params != nil {
		sch, compact, err := compileSchema(params)
		if err != nil {
			bad("parameters", "%v", err)
		}
		t.schema, t.parameters = sch, compact
	}
	return t, problems
}
