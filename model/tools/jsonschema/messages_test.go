package jsonschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/format"
)

func compileText(t *testing.T, schema string) (*Schema, error) {
	t.Helper()
	return Compile(decode(t, []byte(schema)))
}

func TestCompileNamesWhereTheSchemaIsWrong(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type": "object", "required": "path"}`, `at "/required": want array, got string`},
		{`{"properties": {"a": {"type": "strnig"}}}`, `at "/properties/a/type": value must be one of "array", "boolean", "integer", "null", "number", "object", "string"`},
		{`{"type": ["string", 3]}`, `at "/type/1": value must be one of`},
		{`{"type": ["string", "string"]}`, `at "/type": "string" is listed twice`},
		{`{"minLength": -1}`, `at "/minLength": must be 0 or more, got -1`},
		{`{"maxItems": 1.5}`, `at "/maxItems": want integer, got number`},
		{`{"required": ["a", "a"]}`, `at "/required": "a" is listed twice`},
		{`{"required": [1]}`, `at "/required/0": want string, got number`},
		{`{"pattern": "(?=a)"}`, `at "/pattern": pattern "(?=a)" cannot be compiled`},
		{`{"patternProperties": {"\\1": {}}}`, `at "/patternProperties/\\1": pattern "\\1" cannot be compiled`},
		{`{"multipleOf": 0}`, `at "/multipleOf": must be greater than 0, got 0`},
		{`{"minimum": "1"}`, `at "/minimum": want number, got string`},
		{`{"allOf": []}`, `at "/allOf": want at least one schema`},
		{`{"anyOf": {}}`, `at "/anyOf": want array, got object`},
		{`{"properties": {"a": 3}}`, `at "/properties/a": want object or boolean (a schema), got number`},
		{`{"properties": {"a/b": {"type": 1}}}`, `at "/properties/a~1b/type": value must be one of`},
		{`{"items": [{"type": "string"}]}`, `at "/items": want object or boolean (a schema), got array; in draft 2020-12 a tuple is "prefixItems"`},
		{`{"$schema": "http://example.com/mine"}`, `at "/$schema": unknown $schema "http://example.com/mine"`},
		{`{"$anchor": "1x"}`, `at "/$anchor": "1x" is not a valid anchor name`},
		{`{"$ref": "#/$defs/missing"}`, `at "/$ref": "#/$defs/missing" points to nothing in the schema`},
		{`{"$ref": "#nowhere"}`, `at "/$ref": "#nowhere" points to no anchor "nowhere"`},
		{`{"$ref": "file:///etc/passwd"}`, `at "/$ref": external $ref "file:///etc/passwd" is not allowed; keep the schema self-contained`},
		{`{"$ref": "other.json#/a"}`, `external $ref "other.json#/a" is not allowed`},
		{`{"$defs": {"a": {"$ref": "https://example.com/s.json"}}}`, `at "/$defs/a/$ref": external $ref "https://example.com/s.json" is not allowed`},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "exclusiveMinimum": 1}`, `at "/exclusiveMinimum": want boolean, got number`},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "required": "a"}`, `at "/required": want array, got string`},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": 3}`, `at "/definitions": want object, got number`},
		{`{"$defs": {"a": []}, "$ref": "#/$defs/a/+0"}`, `"#/$defs/a/+0" points to nothing in the schema`},
		{`{"$defs": {"a": [{}]}, "$ref": "#/$defs/a/00"}`, `"#/$defs/a/00" points to nothing in the schema`},
		{`{"$anchor": 1}`, `at "/$anchor": want string, got number`},
	} {
		_, err := compileText(t, tc.schema)
		var se *SchemaError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.schema, err, tc.want)
		}
	}
}

func TestCompileListsEveryProblemOfTheSchema(t *testing.T) {
	_, err := compileText(t, `{"minLength": -1, "required": "a", "properties": {"b": {"type": "nope"}}}`)
	want := `at "/minLength": must be 0 or more, got -1; at "/properties/b/type": value must be one of "array", "boolean", "integer", "null", "number", "object", "string"; at "/required": want array, got string`
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

func TestCompileAcceptsWhatEachDraftAllows(t *testing.T) {
	for _, schema := range []string{
		`true`, `false`, `{}`,
		`{"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "string"}}}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}], "additionalItems": false, "definitions": {"x": {}}}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/x", "required": "ignored beside $ref", "definitions": {"x": {}}}`,
		`{"$schema": "http://json-schema.org/draft-04/schema", "maximum": 3, "exclusiveMaximum": true}`,
		`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true, "items": {"$recursiveRef": "#"}}`,
		`{"$dynamicAnchor": "node", "items": {"$dynamicRef": "#node"}}`,
		`{"unknownKeyword": {"$ref": "file:///is/not/a/reference/here"}, "format": "email"}`,
		`{"$defs": {"a": {"items": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}`,
		`{"prefixItems": [{"$ref": "#"}]}`,
		`{"anyOf": [{"$schema": "http://json-schema.org/draft-04/schema#", "id": "#a"}, false]}`, // a fragment names no resource
	} {
		if _, err := compileText(t, schema); err != nil {
			t.Errorf("%s: %v", schema, err)
		}
	}
}

func TestReferenceLoopsAreRefusedAndRecursionEnds(t *testing.T) {
	for _, schema := range []string{
		`{"$ref": "#"}`,
		`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`,
		`{"$defs": {"a": {"not": {"$ref": "#/$defs/a"}}}}`,
		`{"if": {"type": "string"}, "then": {"$ref": "#"}}`,
		`{"dependentSchemas": {"a": {"$ref": "#"}}}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"a": {"$ref": "#/definitions/a"}}}`,
	} {
		_, err := compileText(t, schema)
		if err == nil || !strings.Contains(err.Error(), "refers back to itself without descending into the value") {
			t.Errorf("%s: error %v, want the loop refused", schema, err)
		}
	}
	// Recursion that descends into the value validates to the end.
	sch, err := compileText(t, `{"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	err = sch.Validate(decode(t, []byte(`{"child": {"child": {"child": {"n": "x"}}}}`)))
	if err == nil || err.Error() != `at "/child/child/child/n": want integer, got string` {
		t.Errorf("got %v", err)
	}
}

// A $dynamicRef that keeps re-entering its own resource cannot be seen at compile time; the
// depth bound ends it.
func TestDynamicRecursionIsBounded(t *testing.T) {
	sch, err := compileText(t, `{"$id": "https://example.com/root", "$dynamicAnchor": "a", "allOf": [{"$ref": "x"}],
		"$defs": {"x": {"$id": "x", "allOf": [{"$dynamicRef": "#a"}], "$defs": {"leaf": {"$dynamicAnchor": "a", "type": "integer"}}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(1); err == nil || !strings.Contains(err.Error(), "nested too deeply to validate") {
		t.Errorf("got %v", err)
	}
}

func TestDeepValuesDoNotOverflowTheStack(t *testing.T) {
	var deep any = []any{}
	for range 10000 {
		deep = []any{deep}
	}
	for _, tc := range []struct {
		schema string
		valid  bool
	}{
		{`{"type": "array"}`, true},
		{`{"type": "array", "items": {"$ref": "#"}}`, false}, // cut off at the depth bound
		{`{"$defs": {"a": {"type": "array", "items": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a", "uniqueItems": true}`, false},
	} {
		sch, err := compileText(t, tc.schema)
		if err != nil {
			t.Fatal(err)
		}
		err = sch.Validate(deep)
		if (err == nil) != tc.valid {
			t.Errorf("%s: %v", tc.schema, err)
		}
		if err != nil && !strings.Contains(err.Error(), "nested too deeply to validate") {
			t.Errorf("%s: %v", tc.schema, err)
		}
	}
}

func TestValidationWordsEveryProblemWhereItIs(t *testing.T) {
	const schema = `{
		"type": "object",
		"required": ["path"],
		"additionalProperties": false,
		"properties": {
			"path": {"type": "string", "minLength": 1, "maxLength": 3},
			"count": {"type": "integer", "minimum": 1, "maximum": 3, "multipleOf": 0.5},
			"ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
			"name": {"type": "string", "pattern": "^[a-z]+$"},
			"mode": {"enum": ["r", "w"]},
			"kind": {"const": "file"},
			"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "minItems": 1, "maxItems": 2},
			"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
			"nums": {"type": "array", "contains": {"type": "integer"}, "minContains": 2, "maxContains": 3},
			"opts": {"type": "object", "minProperties": 1, "maxProperties": 2, "propertyNames": {"maxLength": 2},
				"dependentRequired": {"a": ["b", "c"]}},
			"either": {"anyOf": [{"type": "string", "minLength": 2}, {"type": "null"}]},
			"one": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]},
			"shape": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
				{"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
			]},
			"no": {"not": {"type": "string"}},
			"never": false,
			"cond": {"if": {"type": "string"}, "then": {"minLength": 3}, "else": {"type": "integer"}},
			"strict": {"type": "object", "properties": {"a": true}, "unevaluatedProperties": false},
			"list": {"type": "array", "prefixItems": [true], "unevaluatedItems": false},
			"wrapped": {"allOf": [{"properties": {"a": {"type": "string"}}}], "unevaluatedProperties": false}
		}
	}`
	sch, err := compileText(t, schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{}`, `missing property "path"`},
		{`{"path": "x"}`, ``},
		{`{"path": 7}`, `at "/path": want string, got number`},
		{`{"path": ""}`, `at "/path": minLength: got 0, want 1`},
		{`{"path": "日本語"}`, ``},
		{`{"path": "日本語x"}`, `at "/path": maxLength: got 4, want 3`},
		{`{"path": "x", "count": 9}`, `at "/count": maximum: got 9, want 3`},
		{`{"path": "x", "count": 0}`, `at "/count": minimum: got 0, want 1`},
		{`{"path": "x", "count": 2.0}`, ``},
		{`{"path": "x", "count": "2"}`, `at "/count": want integer, got string`},
		{`{"path": "x", "count": 1.5}`, `at "/count": want integer, got number`},
		{`{"path": "x", "ratio": 1}`, `at "/ratio": exclusiveMaximum: got 1, want less than 1`},
		{`{"path": "x", "ratio": 0}`, `at "/ratio": exclusiveMinimum: got 0, want more than 0`},
		{`{"path": "x", "name": "A1"}`, `at "/name": "A1" does not match pattern "^[a-z]+$"`},
		{`{"path": "x", "mode": "x"}`, `at "/mode": value must be one of "r", "w"`},
		{`{"path": "x", "kind": "dir"}`, `at "/kind": value must be "file"`},
		{`{"path": "x", "tags": []}`, `at "/tags": minItems: got 0, want 1`},
		{`{"path": "x", "tags": ["a", "b", "a"]}`, `at "/tags": maxItems: got 3, want 2; at "/tags": uniqueItems: items 0 and 2 are equal`},
		{`{"path": "x", "tags": ["a", 1]}`, `at "/tags/1": want string, got number`},
		{`{"path": "x", "pair": ["a", 1, 2]}`, `at "/pair": at most 2 items allowed, got 3`},
		{`{"path": "x", "pair": [1, "a"]}`, `at "/pair/0": want string, got number; at "/pair/1": want integer, got string`},
		{`{"path": "x", "nums": ["a"]}`, `at "/nums": contains: no item matches the "contains" schema`},
		{`{"path": "x", "nums": [1, "a"]}`, `at "/nums": minContains: 1 item matches the "contains" schema, want at least 2`},
		{`{"path": "x", "nums": [1, 2, 3, 4]}`, `at "/nums": maxContains: 4 items match the "contains" schema, want at most 3`},
		{`{"path": "x", "opts": {}}`, `at "/opts": minProperties: got 0, want 1`},
		{`{"path": "x", "opts": {"long": 1}}`, `at "/opts": property name "long": maxLength: got 4, want 2`},
		{`{"path": "x", "opts": {"a": 1}}`, `at "/opts": missing properties "b", "c", required when "a" is present`},
		{`{"path": "x", "either": "a"}`, `at "/either": minLength: got 1, want 2`},
		{`{"path": "x", "either": 3}`, `at "/either": want string or null, got number`},
		{`{"path": "x", "one": 3}`, `at "/one": oneOf: matches alternatives 0 and 1, want exactly one`},
		{`{"path": "x", "one": -1.5}`, `at "/one": minimum: got -1.5, want 0`},
		{`{"path": "x", "shape": {"kind": "square", "side": "2"}}`, `at "/shape/side": want number, got string`},
		{`{"path": "x", "shape": 4}`, `at "/shape": want object, got number`},
		{`{"path": "x", "shape": {"kind": "triangle", "r": 1}}`, `at "/shape/kind": value must be one of "circle", "square"`},
		{`{"path": "x", "shape": {"kind": "circle"}}`, `at "/shape": missing property "r"`},
		{`{"path": "x", "no": "s"}`, `at "/no": must not match the "not" schema`},
		{`{"path": "x", "never": 1}`, `at "/never": no value is allowed here`},
		{`{"path": "x", "cond": "ab"}`, `at "/cond": minLength: got 2, want 3`},
		{`{"path": "x", "cond": true}`, `at "/cond": want integer, got boolean`},
		{`{"path": "x", "strict": {"a": 1, "b": 2}}`, `at "/strict": unexpected property "b"`},
		{`{"path": "x", "list": [1, 2, 3]}`, `at "/list": unexpected items at 1, 2`},
		{`{"path": "x", "strict": {"a": 1, "b": 2}, "tags": "t"}`, `at "/strict": unexpected property "b"; at "/tags": want array, got string`},
		{`{"path": "x", "wrapped": {"a": 1, "b": 2}}`, `at "/wrapped/a": want string, got number`},
		{`{"path": "x", "wrapped": {"a": "s", "b": 2, "c": 3}}`, `at "/wrapped": unexpected properties "b", "c"`},
		{`{"path": 1, "extra": 1, "more": 2}`, `at "/path": want string, got number; unexpected properties "extra", "more"`},
		{`{"value": "x"}`, `missing property "path"; unexpected property "value"`},
	} {
		err := sch.Validate(decode(t, []byte(tc.args)))
		got := ""
		if err != nil {
			got = err.Error()
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Errorf("%s: error %T, want *ValidationError", tc.args, err)
			}
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

func TestLocationsAreJSONPointers(t *testing.T) {
	sch, err := compileText(t, `{"additionalProperties": {"type": "string"}}`)
	if err != nil {
		t.Fatal(err)
	}
	err = sch.Validate(map[string]any{"a/b~c": 1})
	if err == nil || err.Error() != `at "/a~1b~0c": want string, got number` {
		t.Errorf("got %v", err)
	}
}

func TestMessagesQuoteValuesShort(t *testing.T) {
	sch, err := compileText(t, `{"properties": {"s": {"pattern": "^a"}, "o": {"const": 1}, "p": {"additionalProperties": {"type": "string"}}},
		"propertyNames": {"maxLength": 200000}}`)
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("é", 100<<10)
	err = sch.Validate(map[string]any{"s": huge, "o": map[string]any{"k": huge}})
	if err == nil || len(err.Error()) > 400 {
		t.Fatalf("error of %d bytes: %.300v", len(err.Error()), err)
	}
	if !strings.Contains(err.Error(), "…") {
		t.Errorf("a cut value is not marked as cut: %v", err)
	}
	err = sch.Validate(map[string]any{"p": map[string]any{huge: 1}})
	if err == nil || len(err.Error()) > 400 {
		t.Fatalf("error of %d bytes: %.300v", len(err.Error()), err)
	}
	if strings.Contains(err.Error(), "\uFFFD") {
		t.Errorf("a value was cut inside a character: %v", err)
	}
}

func TestReferencesResolveInsideTheDocument(t *testing.T) {
	for _, tc := range []struct {
		schema, valid, invalid string
	}{
		{`{"$defs": {"a b%": {"type": "string"}}, "$ref": "#/$defs/a%20b%25"}`, `"x"`, `1`},
		{`{"x-alternatives": [{"type": "integer"}, {"type": "string"}], "$ref": "#/x-alternatives/1"}`, `"x"`, `1`},
		{`{"$defs": {"a/b": {"type": "string"}, "c~d": {"type": "integer"}}, "properties": {"x": {"$ref": "#/$defs/a~1b"}, "y": {"$ref": "#/$defs/c~0d"}}}`, `{"x": "s", "y": 1}`, `{"x": 1}`},
		{`{"$defs": {"s": {"$anchor": "str", "type": "string"}}, "items": {"$ref": "#str"}}`, `["a"]`, `[1]`},
		{`{"$id": "https://example.com/root.json", "$defs": {"s": {"$id": "string.json", "type": "string"}}, "items": {"$ref": "string.json"}}`, `["a"]`, `[1]`},
		{`{"$id": "https://example.com/root.json", "$defs": {"s": {"$id": "https://example.com/string.json", "type": "string"}}, "items": {"$ref": "https://example.com/string.json"}}`, `["a"]`, `[1]`},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"$id": "#str", "type": "string"}}, "items": {"$ref": "#str"}}`, `["a"]`, `[1]`},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "definitions": {"s": {"id": "#str", "type": "string"}}, "items": {"$ref": "#str"}}`, `["a"]`, `[1]`},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"$ref": "#/definitions/n", "type": "string"}}, "definitions": {"n": {"type": "integer"}}}`, `{"a": 1}`, `{"a": "s"}`},
		{`{"properties": {"a": {"$ref": "#/$defs/n", "minimum": 5}}, "$defs": {"n": {"type": "integer"}}}`, `{"a": 6}`, `{"a": 1}`},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true, "type": "object", "properties": {"c": {"$recursiveRef": "#"}}}`, `{"c": {"c": {}}}`, `{"c": {"c": 1}}`},
		// $recursiveRef in an extended schema means the outermost resource that set $recursiveAnchor.
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/strict-tree", "$recursiveAnchor": true,
			"$ref": "tree", "unevaluatedProperties": false,
			"$defs": {"tree": {"$id": "tree", "$recursiveAnchor": true, "type": "object",
				"properties": {"data": true, "children": {"type": "array", "items": {"$recursiveRef": "#"}}}}}}`,
			`{"children": [{"data": 1}]}`, `{"children": [{"daat": 1}]}`},
		// An embedded resource of another draft follows that draft's rules.
		{`{"$defs": {"one": {"id": "http://example.com/one.json", "$schema": "http://json-schema.org/draft-04/schema#",
			"properties": {"a": {"type": "number"}}, "unevaluatedProperties": 1}}, "$ref": "#/$defs/one"}`, `{"a": 1, "b": 2}`, `{"a": "one"}`},
	} {
		sch, err := compileText(t, tc.schema)
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		if err := sch.Validate(decode(t, []byte(tc.valid))); err != nil {
			t.Errorf("%s: %s: %v", tc.schema, tc.valid, err)
		}
		if err := sch.Validate(decode(t, []byte(tc.invalid))); err == nil {
			t.Errorf("%s: %s validates", tc.schema, tc.invalid)
		}
	}
}

func TestDraftDifferences(t *testing.T) {
	for _, tc := range []struct {
		schema, instance string
		valid            bool
	}{
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 3, "exclusiveMaximum": true}`, `3`, false},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 3, "exclusiveMaximum": false}`, `3`, true},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "const": 1}`, `2`, true}, // no const before draft-06
		{`{"$schema": "http://json-schema.org/draft-06/schema#", "const": 1}`, `2`, false},
		{`{"$schema": "http://json-schema.org/draft-06/schema#", "if": false, "else": false}`, `2`, true}, // no if before draft-07
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"]}}`, `{"a": 1}`, false},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": {"required": ["b"]}}}`, `{"a": 1}`, false},
		{`{"dependencies": {"a": ["b"]}}`, `{"a": 1}`, true}, // replaced in 2019-09
		{`{"dependentRequired": {"a": ["b"]}}`, `{"a": 1}`, false},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}], "additionalItems": false}`, `["a", 1]`, false},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "items": [{"type": "string"}], "unevaluatedItems": false}`, `["a", 1]`, false},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "items": [{"type": "string"}], "unevaluatedItems": false}`, `["a"]`, true},
		{`{"prefixItems": [{"type": "string"}], "additionalItems": false}`, `["a", 1]`, true}, // additionalItems is gone in 2020-12
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "contains": {"type": "string"}, "minContains": 0}`, `[1]`, true},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "contains": true, "unevaluatedItems": false}`, `[1]`, false},
		{`{"contains": true, "unevaluatedItems": false}`, `[1]`, true},
		{`{"$schema": "http://json-schema.org/draft-07/schema#", "contains": {"type": "string"}, "minContains": 0}`, `[1]`, false},
		{`{"type": "integer"}`, `1.0`, true},
		{`{"type": "integer"}`, `1e2`, true},
		{`{"type": "integer"}`, `1.5e1`, true},
		{`{"type": "integer"}`, `1.05e1`, false},
		{`{"const": 1}`, `1.0`, true},
		{`{"const": {"a": [1, {"b": null}]}}`, `{"a": [1.0, {"b": null}]}`, true},
		{`{"enum": [false]}`, `0`, false},
		{`{"uniqueItems": true}`, `[{"a": 1, "b": 2}, {"b": 2, "a": 1.0}]`, false},
		{`{"uniqueItems": true}`, `[1, true, "1", [1], {"1": 1}]`, true},
		{`{"multipleOf": 0.01}`, `19.99`, true},
		{`{"multipleOf": 0.1}`, `0.3`, true},
		{`{"multipleOf": 3}`, `1e400`, false},
		{`{"multipleOf": 5}`, `1e400`, true},
		{`{"multipleOf": 1e-400}`, `1`, true},
		{`{"multipleOf": 7}`, `1e999999999999`, false},
		{`{"multipleOf": 2.5}`, `1e999999999999`, true},
		{`{"multipleOf": 0.3}`, `0.9`, true},
		{`{"multipleOf": 0.3}`, `1`, false},
		{`{"multipleOf": 10}`, `5`, false},
		{`{"multipleOf": 123456789012345678901234567890}`, `246913578024691357802469135780`, true},
		{`{"multipleOf": 123456789012345678901234567890}`, `246913578024691357802469135781`, false},
		{`{"multipleOf": 1234567890123456789012345678.9}`, `2469135780246913578024691357.8e3`, true},
		{`{"multipleOf": 999999999999999989}`, `1999999999999999978`, true},
		{`{"multipleOf": 999999999999999989}`, `1999999999999999979`, false},
		{`{"maximum": 1e308}`, `1e999999999999`, false},
		{`{"minimum": -1e308}`, `-1e999999999999`, false},
		{`{"maximum": 9007199254740993}`, `9007199254740992`, true},
		{`{"maximum": 9007199254740992}`, `9007199254740993`, false},
		{`{"maxLength": 2}`, `"日本"`, true},
		// draft-06
		{`{"$schema": "http://json-schema.org/draft-06/schema#", "exclusiveMaximum": 3}`, `3`, false},
		{`{"$schema": "http://json-schema.org/draft-06/schema#", "propertyNames": {"maxLength": 1}}`, `{"ab": 1}`, false},
		{`{"$schema": "http://json-schema.org/draft-06/schema#", "contains": {"const": 2}}`, `[1, 2]`, true},
		{`{"$schema": "http://json-schema.org/draft-06/schema#", "$id": "http://example.com/r.json", "definitions": {"s": {"$id": "s.json", "type": "string"}}, "items": {"$ref": "s.json"}}`, `[1]`, false},
		// draft-04
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "id": "http://example.com/r.json", "definitions": {"s": {"id": "s.json", "type": "string"}}, "items": {"$ref": "s.json"}}`, `[1]`, false},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 3, "exclusiveMinimum": true}`, `3.5`, true},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "propertyNames": false}`, `{"a": 1}`, true}, // no propertyNames before draft-06
		// 2019-09
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}}`, `["a", 1, "b"]`, false},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "items": [true], "additionalItems": {"type": "integer"}, "unevaluatedItems": false}`, `["a", 1, 2]`, true},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "dependentSchemas": {"a": {"properties": {"b": true}}}, "unevaluatedProperties": false}`, `{"a": 1, "b": 2}`, false},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "properties": {"a": true}, "dependentSchemas": {"a": {"properties": {"b": true}}}, "unevaluatedProperties": false}`, `{"a": 1, "b": 2}`, true},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$defs": {"s": {"$anchor": "s", "type": "string"}}, "$ref": "#s", "maxLength": 1}`, `"ab"`, false},
		// $recursiveRef without $recursiveAnchor in the outer resource is a plain $ref.
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/outer", "$ref": "inner", "unevaluatedProperties": false,
			"$defs": {"inner": {"$id": "inner", "$recursiveAnchor": true, "properties": {"c": {"$recursiveRef": "#"}, "d": true}}}}`, `{"c": {"x": 1}}`, true},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": false, "properties": {"c": {"$recursiveRef": "#"}}, "type": "object"}`, `{"c": 1}`, false},
		{`{"format": "email"}`, `"not an email"`, true},
	} {
		sch, err := compileText(t, tc.schema)
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		if err := sch.Validate(decode(t, []byte(tc.instance))); (err == nil) != tc.valid {
			t.Errorf("%s: %s: %v, want valid %v", tc.schema, tc.instance, err, tc.valid)
		}
	}
}

// A hostile number of a million digits is checked against multipleOf in linear time, exactly.
func TestMultipleOfAHugeNumber(t *testing.T) {
	for _, tc := range []struct {
		schema, digits string
		valid          bool
	}{
		{`{"multipleOf": 3}`, strings.Repeat("7", 1<<20), false},                        // digit sum 7·2^20, not a multiple of 3
		{`{"multipleOf": 7}`, strings.Repeat("7", 1<<20), true},                         // 7 × 111…1
		{`{"multipleOf": 1111111111111111111111}`, strings.Repeat("1", 22*40000), true}, // 22 ones repeat
		{`{"multipleOf": 1111111111111111111111}`, strings.Repeat("1", 22*40000+1), false},
	} {
		sch, err := compileText(t, tc.schema)
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(json.Number(tc.digits)); (err == nil) != tc.valid {
			t.Errorf("%s: %d digits: %v, want valid %v", tc.schema, len(tc.digits), err, tc.valid)
		}
	}
}

// Go values of any number type are numbers, as a caller building arguments by hand writes them.
func TestGoNumbersAreNumbers(t *testing.T) {
	sch, err := compileText(t, `{"items": {"type": "integer", "maximum": 3}}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate([]any{1, int64(2), uint8(3), 2.0, float32(1)}); err != nil {
		t.Error(err)
	}
	if err := sch.Validate([]any{4, 2.5}); err == nil || err.Error() != `at "/0": maximum: got 4, want 3; at "/1": want integer, got number` {
		t.Errorf("got %v", err)
	}
}

// Alternatives inside alternatives multiply: 30 levels of two would be 2^30 evaluations. The
// bound ends it with one problem that says so.
func TestValidationWorkIsBounded(t *testing.T) {
	defs := map[string]any{"d30": map[string]any{"type": "string"}}
	for i := range 30 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"anyOf": []any{next, next}}
	}
	sch, err := Compile(map[string]any{"$defs": defs, "$ref": "#/$defs/d0"})
	if err != nil {
		t.Fatal(err)
	}
	err = sch.Validate(json.Number("1"))
	want := fmt.Sprintf("the value is too complex to validate (more than %s schema evaluations)", format.Thousands(maxEvaluations))
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if err := sch.Validate("s"); err != nil {
		t.Errorf("a string takes the first alternative at every level: %v", err)
	}
}
