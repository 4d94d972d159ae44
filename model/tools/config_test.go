package tools

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const validTool = `[[tool]]
name = "ok_tool"
description = "fine"
argv = ["true"]
side_effects = false
`

func TestParseReportsProblemsNamingFileToolAndField(t *testing.T) {
	for _, tc := range []struct {
		name, toml string
		want       []string // each a whole error line
	}{
		{"missing argv", `[[tool]]
name = "lister"
description = "d"
side_effects = false`,
			[]string{`tools.toml: tool "lister" (#1): argv: missing or not a list; give the program and its fixed arguments, e.g. ["git", "status"] (no shell is involved)`}},
		{"empty argv[0]", `[[tool]]
name = "x"
description = "d"
argv = ["", "a"]
side_effects = false`,
			[]string{`tools.toml: tool "x" (#1): argv: item 0 must be a non-empty string without NUL bytes`}},
		{"built-in name", `[[tool]]
name = "read_file"
description = "d"
argv = ["cat"]
side_effects = false`,
			[]string{`tools.toml: tool #1: name: "read_file" is the name of a built-in tool; choose another`}},
		{"bad name", `[[tool]]
name = "my tool!"
description = "d"
argv = ["cat"]
side_effects = false`,
			[]string{`tools.toml: tool #1: name: "my tool!" is not a valid name: use 1-64 letters, digits, _ or - (what OpenAI accepts)`}},
		{"name too long", `[[tool]]
name = "` + strings.Repeat("a", 65) + `"
description = "d"
argv = ["cat"]
side_effects = false`,
			[]string{`tools.toml: tool #1: name: "` + strings.Repeat("a", 65) + `" is not a valid name: use 1-64 letters, digits, _ or - (what OpenAI accepts)`}},
		{"invalid schema", `[[tool]]
name = "s"
description = "d"
argv = ["cat"]
side_effects = false
parameters = '{"type": "object", "required": "path"}'`,
			[]string{`tools.toml: tool "s" (#1): parameters: not a valid JSON Schema: at "/required": want array, got string`}},
		{"schema not JSON", `[[tool]]
name = "s"
description = "d"
argv = ["cat"]
side_effects = false
parameters = '{type: object}'`,
			[]string{`tools.toml: tool "s" (#1): parameters: not valid JSON: invalid character 't' looking for beginning of object key string`}},
		{"schema of wrong kind", `[[tool]]
name = "s"
description = "d"
argv = ["cat"]
side_effects = false
parameters = 3`,
			[]string{`tools.toml: tool "s" (#1): parameters: must be a JSON Schema, as a TOML table or as a string of JSON`}},
		{"several problems, unknown key, bad timeout, no side_effects", validTool + `
[[tool]]
name = "two"
argv = ["cat"]
timeout = "soon"
side_effect = true`,
			[]string{
				`tools.toml: tool "two" (#2): side_effect: unknown key; the keys are name, description, argv, side_effects, timeout, parameters`,
				`tools.toml: tool "two" (#2): description: missing; say what the tool does, for the model to read`,
				`tools.toml: tool "two" (#2): side_effects: missing or not true/false; say true if the tool may change anything (the chat then asks before running it), false if it only reads`,
				`tools.toml: tool "two" (#2): timeout: must be a positive duration such as "10s" or "2m"`,
			}},
		{"duplicate", validTool + validTool,
			[]string{`tools.toml: tool "ok_tool" (#2): name: already used by tool #1; names must be unique`}},
		{"negative timeout", validTool + `timeout = "-1s"`,
			[]string{`tools.toml: tool "ok_tool" (#1): timeout: must be a positive duration such as "10s" or "2m"`}},
		{"unknown top-level key", "verbose = true\n" + validTool,
			[]string{`tools.toml: verbose: unknown key; declare each tool in its own [[tool]] table`}},
		{"tool as a single table", "[tool]\nname = \"x\"",
			[]string{`tools.toml: tool: must be an array of tables; declare each tool in its own [[tool]] table`}},
		{"not TOML", "[[tool]\nname = ",
			[]string{`tools.toml: not valid TOML: line 2: expected end of table array name delimiter ']', but got '\n' instead`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools, err := Parse([]byte(tc.toml), "tools.toml")
			if err == nil || tools != nil {
				t.Fatalf("accepted: %d tools", len(tools))
			}
			if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("errors:\n%s\nwant:\n%s", err, strings.Join(tc.want, "\n"))
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.File != "tools.toml" {
				t.Fatalf("not a *ConfigError naming the file: %#v", err)
			}
		})
	}
}

func TestParseAcceptsBothSchemaForms(t *testing.T) {
	tools, err := Parse([]byte(`
[[tool]]
name = "as_string"
description = "d"
argv = ["cat"]
side_effects = true
timeout = "1m30s"
parameters = '''{"type": "object", "properties": {"n": {"type": "integer"}}}'''

[[tool]]
name = "as_table"
description = "d"
argv = ["cat"]
side_effects = false
[tool.parameters]
type = "object"
properties.n = { type = "integer" }
`), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"properties":{"n":{"type":"integer"}},"type":"object"}`
	for _, tool := range tools {
		if string(tool.parameters) != want {
			t.Errorf("%s: parameters %s, want %s", tool.name, tool.parameters, want)
		}
	}
	if !tools[0].sideEffects || tools[0].timeout != 90*time.Second || tools[1].sideEffects || tools[1].timeout != DefaultTimeout {
		t.Errorf("side effects / timeouts: %+v", tools)
	}
}

func TestTheExampleFileLoads(t *testing.T) {
	tools, err := LoadFile(filepath.Join("testdata", "example-tools.toml"))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRegistry(t, "")
	if err := r.Add(tools...); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"git_log": false, "make_note": true, "count_words": false}
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for name, se := range want {
		if r.SideEffects(name) != se || r.lookup(name) == nil {
			t.Errorf("%s: missing, or side effects not %v", name, se)
		}
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Log("python3 is not installed; the example tools were loaded but not run")
		return
	}
	res := run(t, r, "make_note", `{"text": "buy milk"}`)
	notes, _ := os.ReadFile(filepath.Join(r.Root(), "NOTES.md"))
	if res.Output != "noted\n" || string(notes) != "buy milk\n" {
		t.Errorf("make_note: %+v; NOTES.md %q", res, notes)
	}
	if res := run(t, r, "count_words", `{"path": "NOTES.md"}`); res.Output != "1 lines, 2 words, 9 bytes\n" {
		t.Errorf("count_words: %+v", res)
	}
}

func TestLoadFileOfAMissingFileIsErrNotExist(t *testing.T) {
	_, err := LoadFile(filepath.Join(t.TempDir(), "tools.toml"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("error %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(validTool))
	if example, err := os.ReadFile(filepath.Join("testdata", "example-tools.toml")); err == nil {
		f.Add(example)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tools, err := Parse(data, "fuzz.toml")
		if err != nil {
			return
		}
		for _, tool := range tools {
			if !validName(tool.name) || isBuiltin(tool.name) || tool.schema == nil ||
				len(tool.argv) == 0 || tool.argv[0] == "" || tool.timeout <= 0 || tool.description == "" {
				t.Fatalf("accepted an invalid tool: %+v", tool)
			}
		}
	})
}

func TestValidNameIsWhatOpenAIAccepts(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"read_file", true}, {"mcp__fs-list", true}, {"A9_-", true},
		{strings.Repeat("x", 64), true}, {strings.Repeat("x", 65), false},
		{"", false}, {"has space", false}, {"dot.name", false}, {"naïve", false}, {"a\n", false},
	} {
		if got := validName(tc.name); got != tc.ok {
			t.Errorf("validName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
