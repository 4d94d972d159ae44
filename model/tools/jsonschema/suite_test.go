package jsonschema

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// suiteModule holds the official JSON-Schema-Test-Suite (draft 2020-12 and draft-07): the
// module ships it in its testdata, and phasechat already requires the module through the MCP
// SDK, so the suite is in the module cache whenever the build is.
const suiteModule = "github.com/google/jsonschema-go"

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

func suiteDir(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", suiteModule).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("the JSON Schema test suite is not here: %s is not in the module cache (go list: %v)", suiteModule, err)
	}
	return filepath.Join(dir, "jsonschema", "testdata")
}

func decode(t testing.TB, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOfficialSuite runs every case of the official suite's draft 2020-12 and draft-07 files:
// a valid instance must validate and an invalid one must not. Cases that need a document from
// outside the schema (the suite's remotes, the metaschemas) are skipped: this package refuses
// such references by design.
func TestOfficialSuite(t *testing.T) {
	root := suiteDir(t)
	for _, d := range []struct{ dir, schema string }{
		{"draft2020-12", "https://json-schema.org/draft/2020-12/schema"},
		{"draft7", "http://json-schema.org/draft-07/schema#"},
	} {
		t.Run(d.dir, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(root, d.dir, "*.json"))
			if len(files) == 0 {
				t.Skipf("no suite files in %s", filepath.Join(root, d.dir))
			}
			passed, failed, skipped := 0, 0, 0
			for _, f := range files {
				name := filepath.Base(f)
				if name == "refRemote.json" {
					skipped++ // every case loads a remote document
					continue
				}
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				var groups []suiteGroup
				if err := json.Unmarshal(data, &groups); err != nil {
					t.Fatal(err)
				}
				for _, g := range groups {
					doc := decode(t, g.Schema)
					if obj, ok := doc.(map[string]any); ok && obj["$schema"] == nil {
						obj["$schema"] = d.schema
					}
					sch, err := Compile(doc)
					if err != nil && needsRemote(err) {
						t.Logf("skip %s: %s: needs a remote document (%v)", name, g.Description, err)
						skipped += len(g.Tests)
						continue
					}
					for _, tc := range g.Tests {
						id := name + ": " + g.Description + ": " + tc.Description
						if err != nil {
							t.Errorf("%s: compile: %v", id, err)
							failed++
							continue
						}
						verr := sch.Validate(decode(t, tc.Data))
						if (verr == nil) != tc.Valid {
							t.Errorf("%s: valid = %v, want %v (%v)", id, verr == nil, tc.Valid, verr)
							failed++
							continue
						}
						passed++
					}
				}
			}
			t.Logf("%s: %d passed, %d failed, %d skipped (remote documents)", d.dir, passed, failed, skipped)
		})
	}
}

// needsRemote reports whether a compile error is only that the schema loads a document from
// elsewhere: the suite's remotes server or a metaschema.
func needsRemote(err error) bool {
	se, ok := err.(*SchemaError)
	if !ok {
		return false
	}
	for _, p := range se.Problems {
		if !strings.HasPrefix(p.Message, `external $ref "`) {
			return false
		}
	}
	return true
}
