package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A side-effecting tool that leaves a marker file proves whether it ran.
func TestInvalidArgumentsAreRejectedBeforeTheToolRuns(t *testing.T) {
	r := newTestRegistry(t, "")
	addTools(t, r, `[[tool]]
name = "mark"
description = "leaves a marker"
argv = ["/bin/sh", "-c", "touch marker"]
side_effects = true
[tool.parameters]
type = "object"
required = ["path"]
additionalProperties = false
properties.path = { type = "string", minLength = 1 }
properties.count = { type = "integer", maximum = 3 }
`)
	marker := filepath.Join(r.Root(), "marker")
	for _, tc := range []struct{ args, want string }{
		{`{}`, `invalid arguments for mark: missing property "path"`},
		{``, `invalid arguments for mark: missing property "path"`},
		{`{"path": 7}`, `invalid arguments for mark: at "/path": want string, got number`},
		{`{"path": ""}`, `invalid arguments for mark: at "/path": minLength: got 0, want 1`},
		{`{"path": "x", "count": 9}`, `invalid arguments for mark: at "/count": maximum: got 9, want 3`},
		{`{"path": "x", "extra": 1, "more": 2}`, `invalid arguments for mark: unexpected properties "extra", "more"`},
		{`"x"`, `invalid arguments for mark: missing property "path"; unexpected property "value"`},
		{`{"path": "x"`, `invalid arguments for mark: the arguments are not valid JSON (unexpected EOF)`},
		{`{"path": "x"} trailing`, `invalid arguments for mark: the arguments are not valid JSON (invalid character after top-level value)`},
	} {
		res := run(t, r, "mark", tc.args)
		wantOutcome(t, res, OutcomeRejected)
		if res.Output != tc.want || res.ExitCode != -1 {
			t.Errorf("args %q: output %q, want %q", tc.args, res.Output, tc.want)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("args %q: the tool ran", tc.args)
		}
	}
	wantOutcome(t, run(t, r, "mark", `{"path": "x", "count": 2}`), OutcomeOK)
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the tool did not run with valid arguments, so the test above proves nothing")
	}
}

func TestCompileSchemaRefusesWhatCannotDescribeArguments(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type": "object"}`, ""},
		{`{"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "string"}}}`, ""},
		{`not json`, "not valid JSON"},
		{`[1]`, "must be a JSON object"},
		{`{"type": "string"}`, `top-level "type" must be "object"`},
		{`{"properties": {}}`, `top-level "type" must be "object"`},
		{`{"type": "object", "properties": {"a": {"type": "strnig"}}}`, `not a valid JSON Schema: at "/properties/a/type": value must be one of`},
		{`{"type": "object", "properties": {"a": {"$ref": "file:///etc/passwd"}}}`, `external $ref "file:///etc/passwd" is not allowed`},
		{`{"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}`, "not a valid JSON Schema"},
	} {
		_, compact, err := compileSchema([]byte(tc.schema))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.schema, err)
		case tc.want == "" && !strings.HasPrefix(string(compact), "{"):
			t.Errorf("%s: compact form %q", tc.schema, compact)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want it to contain %q", tc.schema, err, tc.want)
		}
	}
}
