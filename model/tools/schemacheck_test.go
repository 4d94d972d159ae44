package tools

import (
	"strings"
	"testing"
)

// decodeArgs is arguments as a call brings them: parsed, numbers as json.Number.
func decodeArgs(t testing.TB, text string) map[string]any {
	t.Helper()
	a, err := callArgs(Call{Arguments: text})
	if err != nil {
		t.Fatal(err)
	}
	return a.Object
}

func TestSchemaProblemsAreNamedWhereTheyAre(t *testing.T) {
	const types = `"array", "boolean", "integer", "null", "number", "object", "string"`
	for _, tc := range []struct{ schema, want string }{
		{`{"type": "object", "required": "path"}`, `at "/required": want array, got string`},
		{`{"type": "object", "properties": {"a": {"type": "strnig"}}}`, `at "/properties/a/type": value must be one of ` + types},
		{`{"type": "object", "properties": {"a": {"type": ["string", 3]}}}`, `at "/properties/a/type/1": value must be one of`},
		{`{"type": "object", "properties": {"a": {"type": ["string", "string"]}}}`, `at "/properties/a/type": "string" is listed twice`},
		{`{"type": "object", "minProperties": -1}`, `at "/minProperties": must be 0 or more, got -1`},
		{`{"type": "object", "maxProperties": 1.5}`, `at "/maxProperties": want integer, got number`},
		{`{"type": "object", "properties": {"a": {"minLength": 99999999999}}}`, `at "/properties/a/minLength": must be at most 2147483647`},
		{`{"type": "object", "required": ["a", "a"]}`, `at "/required": "a" is listed twice`},
		{`{"type": "object", "required": [1]}`, `at "/required/0": want string, got number`},
		{`{"type": "object", "properties": {"a": {"pattern": "(?=a)"}}}`, `at "/properties/a/pattern": pattern "(?=a)" cannot be compiled`},
		{`{"type": "object", "patternProperties": {"\\1": {}}}`, `at "/patternProperties/\\1": pattern "\\1" cannot be compiled`},
		{`{"type": "object", "properties": {"a": {"multipleOf": 0}}}`, `at "/properties/a/multipleOf": must be greater than 0, got 0`},
		{`{"type": "object", "properties": {"a": {"minimum": "1"}}}`, `at "/properties/a/minimum": want number, got string`},
		{`{"type": "object", "allOf": []}`, `at "/allOf": want at least one schema`},
		{`{"type": "object", "anyOf": {}}`, `at "/anyOf": want array, got object`},
		{`{"type": "object", "properties": {"a": 3}}`, `at "/properties/a": want object or boolean (a schema), got number`},
		{`{"type": "object", "properties": {"a/b": {"type": 1}}}`, `at "/properties/a~1b/type": value must be one of`},
		{`{"type": "object", "properties": {"a": {"items": [{"type": "string"}]}}}`, `at "/properties/a/items": want object or boolean (a schema), got array; in draft 2020-12 a tuple is "prefixItems"`},
		{`{"type": "object", "description": 5}`, `at "/description": want string, got number`},
		{`{"type": "object", "$schema": "http://example.com/mine"}`, `at "/$schema": unknown $schema "http://example.com/mine"`},
		{`{"type": "object", "$anchor": "1x"}`, `at "/$anchor": "1x" is not a valid anchor name`},
		{`{"type": "object", "$ref": "#/$defs/missing"}`, `at "/$ref": "#/$defs/missing" points to nothing in the schema`},
		{`{"type": "object", "$ref": "#nowhere"}`, `at "/$ref": "#nowhere" points to nothing in the schema`},
		{`{"type": "object", "$ref": "file:///etc/passwd"}`, `at "/$ref": external $ref "file:///etc/passwd" is not allowed; keep the schema self-contained`},
		{`{"type": "object", "$defs": {"a": {"$ref": "https://example.com/s.json"}}}`, `at "/$defs/a/$ref": external $ref "https://example.com/s.json" is not allowed`},
		{`{"type": "object", "properties": {"a": {"$id": "https://x/y"}}}`, `at "/properties/a/$id": an embedded schema with its own $id is not supported`},
		{`{"type": "object", "$schema": "http://json-schema.org/draft-07/schema#", "definitions": 3}`, `at "/definitions": want object, got number`},
	} {
		_, _, err := compileSchema([]byte(tc.schema))
		if err == nil || !strings.Contains(err.Error(), "not a valid JSON Schema: "+tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.schema, err, tc.want)
		}
	}
}

func TestSchemaProblemsAreAllListed(t *testing.T) {
	_, _, err := compileSchema([]byte(`{"type": "object", "minProperties": -1, "required": "a", "properties": {"b": {"type": "nope"}}}`))
	want := `not a valid JSON Schema: at "/minProperties": must be 0 or more, got -1; at "/properties/b/type": value must be one of "array", "boolean", "integer", "null", "number", "object", "string"; at "/required": want array, got string`
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// The library knows 2020-12 and draft-07. draft-06 and draft-04 are read as draft-07, 2019-09 as
// 2020-12, and where a keyword's meaning changed between them the schema is refused with what
// to write instead.
func TestOlderDraftsAreReadAsTheNearestTheLibraryKnows(t *testing.T) {
	for _, tc := range []struct{ schema, valid, invalid string }{
		{`{"type": "object", "$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"$id": "#str", "type": "string"}}, "properties": {"a": {"$ref": "#str"}}}`, `{"a": "s"}`, `{"a": 1}`},
		{`{"type": "object", "$schema": "http://json-schema.org/draft-07/schema", "properties": {"a": {"items": [{"type": "string"}], "additionalItems": false}}}`, `{"a": ["s"]}`, `{"a": ["s", 1]}`},
		{`{"type": "object", "$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"]}}`, `{"a": 1, "b": 2}`, `{"a": 1}`},
		{`{"type": "object", "$schema": "http://json-schema.org/draft-06/schema#", "properties": {"a": {"const": 1}}}`, `{"a": 1}`, `{"a": 2}`},
		{`{"type": "object", "$schema": "http://json-schema.org/draft-04/schema", "properties": {"a": {"maximum": 3}}}`, `{"a": 3}`, `{"a": 4}`},
		{`{"type": "object", "$schema": "https://json-schema.org/draft/2019-09/schema", "dependentRequired": {"a": ["b"]}}`, `{"a": 1, "b": 2}`, `{"a": 1}`},
		{`{"type": "object", "$dynamicAnchor": "node", "properties": {"c": {"$dynamicRef": "#node"}}}`, `{"c": {"c": {}}}`, `{"c": {"c": 1}}`},
		{`{"type": "object", "$id": "https://example.com/root.json", "properties": {"a": {"$ref": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}`, `{"a": "s"}`, `{"a": 1}`},
		{`{"type": "object", "$defs": {"s": {"$anchor": "str", "type": "string"}}, "properties": {"a": {"$ref": "#str"}}}`, `{"a": "s"}`, `{"a": 1}`},
		{`{"type": "object", "$defs": {"a b%": {"type": "string"}}, "properties": {"x": {"$ref": "#/$defs/a%20b%25"}}}`, `{"x": "s"}`, `{"x": 1}`},
		{`{"type": "object", "$defs": {"a/b": {"type": "string"}}, "properties": {"x": {"$ref": "#/$defs/a~1b"}}}`, `{"x": "s"}`, `{"x": 1}`},
	} {
		sch, _, err := compileSchema([]byte(tc.schema))
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		if err := sch.validate(decodeArgs(t, tc.valid)); err != nil {
			t.Errorf("%s: %s: %v", tc.schema, tc.valid, err)
		}
		if err := sch.validate(decodeArgs(t, tc.invalid)); err == nil {
			t.Errorf("%s: %s validates", tc.schema, tc.invalid)
		}
	}
	for _, tc := range []struct{ schema, want string }{
		{`{"type": "object", "$schema": "http://json-schema.org/draft-04/schema#", "properties": {"a": {"minimum": 1, "exclusiveMinimum": true}}}`,
			`at "/properties/a/exclusiveMinimum": draft-04's boolean "exclusiveMinimum" is not supported; give the bound itself ("exclusiveMinimum": 3)`},
		{`{"type": "object", "$schema": "https://json-schema.org/draft/2019-09/schema", "properties": {"a": {"items": [{}]}}}`,
			`at "/properties/a/items": draft 2019-09's tuple "items" is not supported; use draft 2020-12's "prefixItems"`},
		{`{"type": "object", "$schema": "https://json-schema.org/draft/2019-09/schema", "properties": {"a": {"additionalItems": false}}}`,
			`at "/properties/a/additionalItems": draft 2019-09's "additionalItems" is not supported`},
		{`{"type": "object", "$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true}`,
			`at "/$recursiveAnchor": draft 2019-09's "$recursiveAnchor" is not supported; use draft 2020-12's "$dynamicRef" and "$dynamicAnchor"`},
	} {
		_, _, err := compileSchema([]byte(tc.schema))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.schema, err, tc.want)
		}
	}
}

// A reference loop that never descends into the value would recurse forever in the library;
// it is refused when the tool is loaded. Recursion that descends is fine.
func TestReferenceLoopsAreRefusedAndRecursionEnds(t *testing.T) {
	for _, schema := range []string{
		`{"type": "object", "$ref": "#"}`,
		`{"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/a"}]}}}`,
		`{"type": "object", "$defs": {"a": {"not": {"$ref": "#/$defs/a"}}}}`,
		`{"type": "object", "if": {"type": "string"}, "then": {"$ref": "#"}}`,
		`{"type": "object", "dependentSchemas": {"a": {"$ref": "#"}}}`,
		`{"type": "object", "$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"a": {"$ref": "#/definitions/a"}}}`,
	} {
		_, _, err := compileSchema([]byte(schema))
		if err == nil || !strings.Contains(err.Error(), "refers back to itself without descending into the value") {
			t.Errorf("%s: error %v, want the loop refused", schema, err)
		}
	}
	sch, _, err := compileSchema([]byte(`{"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = sch.validate(decodeArgs(t, `{"child": {"child": {"child": {"n": "x"}}}}`))
	if err == nil || err.Error() != `at "/child/child/child/n": want integer, got string` {
		t.Errorf("got %v", err)
	}
}

func TestSchemasNestedTooDeeplyAreRefused(t *testing.T) {
	deep := `{"type": "string"}`
	for range maxSchemaDepth + 1 {
		deep = `{"items": ` + deep + `}`
	}
	_, _, err := compileSchema([]byte(`{"type": "object", "properties": {"a": ` + deep + `}}`))
	if err == nil || !strings.Contains(err.Error(), "schemas nested more than 64 deep") {
		t.Errorf("got %v", err)
	}
}
