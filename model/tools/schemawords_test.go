package tools

import (
	"fmt"
	"strings"
	"testing"
)

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
	sch, _, err := compileSchema([]byte(schema))
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
		{`{"path": "x", "count": 1e400}`, `at "/count": "1e400" is too large a number`},
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
		{`{"path": "x", "shape": {"kind": "triangle", "r": 1}}`, `at "/shape/kind": value must be "circle"`},
		{`{"path": "x", "shape": {"kind": "circle"}}`, `at "/shape": missing property "r"`},
		{`{"path": "x", "no": "s"}`, `at "/no": must not match the "not" schema`},
		{`{"path": "x", "never": 1}`, `at "/never": no value is allowed here`},
		{`{"path": "x", "cond": "ab"}`, `at "/cond": minLength: got 2, want 3`},
		{`{"path": "x", "cond": true}`, `at "/cond": want integer, got boolean`},
		{`{"path": "x", "strict": {"a": 1, "b": 2}}`, `at "/strict": unexpected property "b"`},
		{`{"path": "x", "list": [1, 2, 3]}`, `at "/list": unexpected items at 1, 2`},
		{`{"path": "x", "strict": {"a": 1, "b": 2}, "tags": "t"}`, `at "/strict": unexpected property "b"; at "/tags": want array, got string`},
		{`{"path": "x", "wrapped": {"a": 1, "b": 2}}`, `at "/wrapped/a": want string, got number; at "/wrapped": unexpected property "b"`},
		{`{"path": "x", "wrapped": {"a": "s", "b": 2, "c": 3}}`, `at "/wrapped": unexpected properties "b", "c"`},
		{`{"path": 1, "extra": 1, "more": 2}`, `at "/path": want string, got number; unexpected properties "extra", "more"`},
		{`{"value": "x"}`, `missing property "path"; unexpected property "value"`},
	} {
		err := sch.validate(decodeArgs(t, tc.args))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

// The library decides; where it rejects a value for a reason words does not follow, its own
// words are shown, never nothing.
func TestTheLibrarysWordsStandInForWhatWordsDoesNotFollow(t *testing.T) {
	sch, _, err := compileSchema([]byte(`{"type": "object", "properties": {"a": {"$ref": "#/$defs/t"}},
		"$defs": {"t": {"anyOf": [{"type": "object", "properties": {"x": true}}], "unevaluatedProperties": false}}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = sch.validate(decodeArgs(t, `{"a": {"x": 1, "y": 2}}`))
	if err == nil || strings.TrimSpace(err.Error()) == "" {
		t.Fatalf("got %v", err)
	}
	if p := libraryProblem(fmt.Errorf("validating root: validating /properties/a: type: 1 has type %q, want %q", "integer", "string")); p.String() != `type: 1 has type "integer", want "string" (the schema's /properties/a)` {
		t.Errorf("library words %q", p)
	}
}

func TestNumbersAreComparedAsNumbers(t *testing.T) {
	for _, tc := range []struct {
		schema, args string
		valid        bool
	}{
		{`{"type": "integer"}`, `1.0`, true},
		{`{"type": "integer"}`, `1e2`, true},
		{`{"type": "integer"}`, `1.05e1`, false},
		{`{"const": 1}`, `1.0`, true},
		{`{"const": {"a": [1, {"b": null}]}}`, `{"a": [1.0, {"b": null}]}`, true},
		{`{"enum": [false]}`, `0`, false},
		{`{"uniqueItems": true}`, `[{"a": 1, "b": 2}, {"b": 2, "a": 1.0}]`, false},
		{`{"uniqueItems": true}`, `[1, true, "1", [1], {"1": 1}]`, true},
		{`{"maximum": 9007199254740993}`, `9007199254740992`, true},
		{`{"multipleOf": 10}`, `5`, false},
		{`{"maxLength": 2}`, `"日本"`, true},
		{`{"format": "email"}`, `"not an email"`, true},
	} {
		sch, _, err := compileSchema([]byte(`{"type": "object", "properties": {"v": ` + tc.schema + `}}`))
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		if err := sch.validate(decodeArgs(t, `{"v": `+tc.args+`}`)); (err == nil) != tc.valid {
			t.Errorf("%s: %s: %v, want valid %v", tc.schema, tc.args, err, tc.valid)
		}
	}
}

func TestMessagesQuoteValuesShort(t *testing.T) {
	sch, _, err := compileSchema([]byte(`{"type": "object", "properties": {"s": {"pattern": "^a"}, "o": {"const": 1}, "p": {"additionalProperties": {"type": "string"}}},
		"propertyNames": {"maxLength": 200000}}`))
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("é", 100<<10)
	for _, args := range []map[string]any{
		{"s": huge, "o": map[string]any{"k": huge}},
		{"p": map[string]any{huge: 1.5}},
	} {
		err := sch.validate(args)
		if err == nil || len(err.Error()) > 400 {
			t.Fatalf("error of %d bytes: %.300v", len(err.Error()), err)
		}
		if !strings.Contains(err.Error(), "…") || strings.Contains(err.Error(), "\uFFFD") {
			t.Errorf("a cut value is not marked as cut, or was cut inside a character: %v", err)
		}
	}
}

// Alternatives inside alternatives multiply: 30 levels of two would be 2^30 evaluations in the
// library. The count made before it refuses the value with one problem that says so.
func TestValidationWorkIsBounded(t *testing.T) {
	var defs []string
	for i := range 30 {
		next := fmt.Sprintf(`{"$ref": "#/$defs/d%d"}`, i+1)
		defs = append(defs, fmt.Sprintf(`"d%d": {"anyOf": [%s, %s]}`, i, next, next))
	}
	defs = append(defs, `"d30": {"type": "string"}`)
	sch, _, err := compileSchema([]byte(`{"type": "object", "properties": {"v": {"$ref": "#/$defs/d0"}}, "$defs": {` + strings.Join(defs, ", ") + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = sch.validate(decodeArgs(t, `{"v": 1}`))
	if err == nil || err.Error() != tooComplex {
		t.Errorf("got %v, want %s", err, tooComplex)
	}
	if err := sch.validate(decodeArgs(t, `{"w": 1}`)); err != nil {
		t.Errorf("a value the alternatives do not reach: %v", err)
	}
}

// A recursive schema follows a value as deep as it goes; past maxValueDepth the value is
// refused before the library recurses.
func TestDeepValuesAreBounded(t *testing.T) {
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	for _, tc := range []struct {
		schema string
		valid  bool
	}{
		{`{"type": "object", "properties": {"v": {"type": "array"}}}`, true},
		{`{"type": "object", "properties": {"v": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "array", "items": {"$ref": "#/$defs/a"}}}}`, false},
	} {
		sch, _, err := compileSchema([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		err = sch.validate(decodeArgs(t, `{"v": `+deep+`}`))
		if (err == nil) != tc.valid {
			t.Errorf("%s: %v", tc.schema, err)
		}
		if err != nil && !strings.Contains(err.Error(), "nested too deeply to validate") {
			t.Errorf("%s: %v", tc.schema, err)
		}
	}
}

// FuzzCompileAndValidate: any schema and arguments, compiled and validated, never panic or
// hang, and every error says something.
func FuzzCompileAndValidate(f *testing.F) {
	f.Add([]byte(`{"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}}}`), []byte(`{"path": 1}`))
	f.Add([]byte(`{"type": "object", "$ref": "#/$defs/a", "$defs": {"a": {"properties": {"x": {"$ref": "#/$defs/a"}}}}}`), []byte(`{"x": {"x": {"x": 1}}}`))
	f.Add([]byte(`{"type": "object", "$dynamicAnchor": "n", "properties": {"i": {"$dynamicRef": "#n"}}, "unevaluatedProperties": false}`), []byte(`{"i": {"j": 1}}`))
	f.Add([]byte(`{"type": "object", "anyOf": [{"properties": {"a": {"multipleOf": 0.1}}}, {"properties": {"a": {"const": 1e300}}}], "properties": {"u": {"uniqueItems": true}}}`), []byte(`{"a": 1e-400, "u": [0.3, 0.3]}`))
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		sch, _, err := compileSchema(schema)
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatalf("empty compile error for %s", schema)
			}
			return
		}
		a, err := callArgs(Call{Arguments: string(args)})
		if err != nil {
			return
		}
		if err := sch.validate(a.Object); err != nil && strings.TrimSpace(err.Error()) == "" {
			t.Fatalf("empty validation error for %s against %s", args, schema)
		}
	})
}
