package jsonschema

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzCompileAndValidate: any schema and value, compiled and validated, never panic or hang,
// and every error says something.
func FuzzCompileAndValidate(f *testing.F) {
	f.Add([]byte(`{"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}}}`), []byte(`{"path": 1}`))
	f.Add([]byte(`{"$ref": "#/$defs/a", "$defs": {"a": {"items": {"$ref": "#/$defs/a"}}}}`), []byte(`[[[[]]]]`))
	f.Add([]byte(`{"$dynamicAnchor": "n", "items": {"$dynamicRef": "#n"}, "unevaluatedItems": false}`), []byte(`[[1], 2]`))
	f.Add([]byte(`{"anyOf": [{"multipleOf": 0.1}, {"const": 1e400}], "uniqueItems": true}`), []byte(`[1e-400, 0.3]`))
	f.Fuzz(func(t *testing.T, schema, instance []byte) {
		doc, ok := decodeFuzz(schema)
		if !ok {
			return
		}
		sch, err := Compile(doc)
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatalf("empty compile error for %s", schema)
			}
			return
		}
		inst, ok := decodeFuzz(instance)
		if !ok {
			return
		}
		if err := sch.Validate(inst); err != nil && strings.TrimSpace(err.Error()) == "" {
			t.Fatalf("empty validation error for %s against %s", instance, schema)
		}
	})
}

func decodeFuzz(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}
