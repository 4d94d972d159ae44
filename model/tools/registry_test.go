package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDefinitionsListBuiltinsThenAddedToolsInOrder(t *testing.T) {
	r := newTestRegistry(t, "")
	addTools(t, r, `
[[tool]]
name = "zeta"
description = "z"
argv = ["true"]
side_effects = false
[[tool]]
name = "alpha"
description = "a"
argv = ["true"]
side_effects = true
`)
	defs := r.Definitions()
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
		var schema map[string]any
		if err := json.Unmarshal(d.Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: parameters %s are not an object schema (%v)", d.Name, d.Parameters, err)
		}
		if d.Description == "" {
			t.Errorf("%s has no description", d.Name)
		}
	}
	want := []string{"now", "list_dir", "read_file", "search_files", "zeta", "alpha"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	if !reflect.DeepEqual(r.Names(), want) {
		t.Fatalf("Names() %v, want %v", r.Names(), want)
	}
	defs[0].Parameters[0] = 'X' // the caller's copy
	if r.Definitions()[0].Parameters[0] != '{' {
		t.Fatal("Definitions shares its schema bytes with the registry")
	}
}

func TestDefinitionMarshalsAsAnOpenAIToolsEntry(t *testing.T) {
	d := Definition{Name: "n", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}
	got, err := json.Marshal([]Definition{d})
	want := `[{"type":"function","function":{"name":"n","description":"d","parameters":{"type":"object"}}}]`
	if err != nil || string(got) != want {
		t.Fatalf("%s (%v), want %s", got, err, want)
	}
}

func TestSideEffects(t *testing.T) {
	r := newTestRegistry(t, "")
	addScriptTool(t, r, "writer", "true", "1s", true)
	addScriptTool(t, r, "reader", "true", "1s", false)
	for name, want := range map[string]bool{
		"now": false, "list_dir": false, "read_file": false, "search_files": false,
		"writer": true, "reader": false, "unknown": false,
	} {
		if got := r.SideEffects(name); got != want {
			t.Errorf("SideEffects(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestUnknownToolIsRejectedNamingTheAvailableOnes(t *testing.T) {
	r := newTestRegistry(t, "")
	res := run(t, r, "rm_rf", `{}`)
	wantOutcome(t, res, OutcomeRejected)
	want := `unknown tool "rm_rf"; available: now, list_dir, read_file, search_files`
	if res.Output != want {
		t.Fatalf("output %q, want %q", res.Output, want)
	}
	if res.CallID != "call_1" || res.Name != "rm_rf" || res.ExitCode != -1 {
		t.Fatalf("result bookkeeping: %+v", res)
	}
}

func TestAddRefusesTakenNamesAtomically(t *testing.T) {
	r := newTestRegistry(t, "")
	one, err := Parse([]byte(`[[tool]]
name = "dup"
description = "d"
argv = ["true"]
side_effects = false`), "a.toml")
	if err != nil {
		t.Fatal(err)
	}
	other, err := Parse([]byte(`[[tool]]
name = "fresh"
description = "d"
argv = ["true"]
side_effects = false`), "b.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(one...); err != nil {
		t.Fatal(err)
	}
	err = r.Add(append(other, one...)...)
	if err == nil || !strings.Contains(err.Error(), `tool "dup" is defined twice`) {
		t.Fatalf("adding a taken name: %v", err)
	}
	if r.lookup("fresh") != nil {
		t.Fatal("Add registered part of a batch it refused")
	}
	if err := r.Add(Tool{name: "raw"}); err == nil {
		t.Fatal("Add accepted a Tool not made by Parse")
	}
	builtin := builtins()[0]
	if err := r.Add(builtin); err == nil || !strings.Contains(err.Error(), "built-in") {
		t.Fatalf("adding a built-in's name: %v", err)
	}
}

func TestCleanIsAppliedToOutputsErrorsAndSummaries(t *testing.T) {
	r := newTestRegistry(t, "")
	r.Clean = func(s string) string { return "CLEANED:" + cleanStub(s) }
	addScriptTool(t, r, "esc", `printf 'red \033[31m text'; printf ' err \033[0m' >&2; exit 1`, "2m", false)
	writeFile(t, r.Root()+"/note.txt", "title \x1b]0;pwned\x07\n")
	for _, res := range []Result{
		run(t, r, "esc", `{}`),                        // command output and its failure
		run(t, r, "read_file", `{"path":"note.txt"}`), // built-in output
		run(t, r, "no_such", `{}`),                    // an unknown tool
		run(t, r, "read_file", `{"path":"missing"}`),  // a built-in's error
		run(t, r, "read_file", `{}`),                  // invalid arguments
	} {
		if !strings.HasPrefix(res.Output, "CLEANED:") || strings.Count(res.Output, "CLEANED:") != 1 {
			t.Errorf("output not cleaned exactly once: %q", res.Output)
		}
		if strings.Contains(res.Output, "\x1b") {
			t.Errorf("raw ESC in output: %q", res.Output)
		}
	}
	if d := r.Describe(Call{Name: "read_file", Arguments: `{"path":"\u001b[2J"}`}); d != "CLEANED:read_file path=␛[2J" {
		t.Errorf("summary not cleaned: %q", d)
	}
}

func TestNilCleanPanicsWithAnExplanation(t *testing.T) {
	r := newTestRegistry(t, "")
	r.Clean = nil
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "Registry.Clean is nil") {
			t.Fatalf("panic %v", p)
		}
	}()
	run(t, r, "now", "")
}

func TestNewRegistryRefusesAFileOrMissingRoot(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/f", "x")
	for _, root := range []string{dir + "/f", dir + "/missing"} {
		if _, err := NewRegistry(root); err == nil {
			t.Errorf("NewRegistry(%q) accepted it", root)
		}
	}
}

func TestCallArgsNormalise(t *testing.T) {
	for _, tc := range []struct {
		in, stdin string
		args      map[string]any
		err       bool
	}{
		{in: "", stdin: "{}", args: map[string]any{}},
		{in: "  \n", stdin: "{}", args: map[string]any{}},
		{in: ` {"a": [1, "x"]} `, stdin: `{"a": [1, "x"]}`, args: map[string]any{"a": []any{json.Number("1"), "x"}}},
		{in: `"README.md"`, stdin: `{"value":"README.md"}`, args: map[string]any{"value": "README.md"}},
		{in: `[1,2]`, stdin: `{"value":[1,2]}`, args: map[string]any{"value": []any{json.Number("1"), json.Number("2")}}},
		{in: `null`, stdin: `{"value":null}`, args: map[string]any{"value": nil}},
		{in: `{"a":`, err: true},
		{in: `{} {}`, err: true},
		{in: `nope`, err: true},
	} {
		parsed, err := callArgs(Call{Arguments: tc.in})
		stdin, args := parsed.JSON, parsed.Object
		if (err != nil) != tc.err {
			t.Errorf("%q: error %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if !tc.err && (stdin != tc.stdin || !reflect.DeepEqual(args, tc.args)) {
			t.Errorf("%q: got %q %#v, want %q %#v", tc.in, stdin, args, tc.stdin, tc.args)
		}
	}
}

func TestCheckRejectsWhatRunWouldRejectWithoutRunning(t *testing.T) {
	r := newTestRegistry(t, "")
	marker := filepath.Join(r.Root(), "ran")
	writeFile(t, filepath.Join(r.Root(), "touch.sh"), "touch ran\n")
	addTools(t, r, `[[tool]]
name = "touch"
description = "makes a file"
argv = ["/bin/sh", "touch.sh"]
side_effects = true
parameters = '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'
`)
	for args, want := range map[string]string{
		`{"name":"x"}`:    "",
		`{}`:              "invalid arguments for touch: ",
		`{"name":`:        "invalid arguments for touch: ",
		`{"name":3}`:      "invalid arguments for touch: ",
		`not json at all`: "invalid arguments for touch: ",
	} {
		got := r.Check(Call{ID: "c", Name: "touch", Arguments: args})
		if want == "" && got != "" || !strings.HasPrefix(got, want) {
			t.Errorf("Check(%s) = %q, want prefix %q", args, got, want)
		}
		if want != "" {
			if res := run(t, r, "touch", args); res.Output != got {
				t.Errorf("Check says %q, Run says %q", got, res.Output)
			}
		}
	}
	if got := r.Check(Call{Name: "nope"}); !strings.HasPrefix(got, `unknown tool "nope"`) {
		t.Errorf("unknown tool: %q", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("Check or a rejected Run ran the tool")
	}
}
