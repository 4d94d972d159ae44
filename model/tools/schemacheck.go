package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
)

// The drafts a tool schema may name with $schema. 2020-12 and draft-07 are the library's own;
// draft-06 is read as draft-07 (the keywords it has mean the same there), 2019-09 as 2020-12
// and draft-04 as draft-07, except for the keywords whose meaning changed, which are refused
// with what to write instead (see lintKeyword).
const (
	draft2020URI = "https://json-schema.org/draft/2020-12/schema"
	draft07URI   = "http://json-schema.org/draft-07/schema#"
)

type draft int

const (
	draft2020 draft = iota
	draft201909
	draft07
	draft06
	draft04
)

// draftOf names the draft a $schema value stands for; ok is false for one we do not know.
func draftOf(uri string) (d draft, ok bool) {
	u := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(uri, "http://"), "https://"), "#")
	switch u {
	case "json-schema.org/draft/2020-12/schema":
		return draft2020, true
	case "json-schema.org/draft/2019-09/schema":
		return draft201909, true
	case "json-schema.org/draft-07/schema":
		return draft07, true
	case "json-schema.org/draft-06/schema":
		return draft06, true
	case "json-schema.org/draft-04/schema":
		return draft04, true
	}
	return 0, false
}

// libraryURI is the $schema the library is given for d.
func (d draft) libraryURI() string {
	if d >= draft07 {
		return draft07URI
	}
	return draft2020URI
}

// maxSchemaDepth bounds how deeply schemas may nest inside one another (a properties' schema
// inside an items' schema is two levels); the library resolves and validates by recursion.
const maxSchemaDepth = 64

// maxSchemaProblems is how many problems of one schema are collected before the check stops.
const maxSchemaProblems = 20

// schemaLint checks a decoded schema document (numbers as json.Number) as its draft's
// metaschema would for the keywords the library reads, each problem at its JSON pointer, and
// refuses what the library would take differently from the draft or could not bound: a $ref
// that leaves the document, an embedded resource ($id below the top), nesting deeper than
// maxSchemaDepth.
type schemaLint struct {
	draft    draft
	problems []argProblem
}

func (l *schemaLint) bad(at, format string, args ...any) {
	if len(l.problems) < maxSchemaProblems {
		l.problems = append(l.problems, argProblem{at: at, msg: fmt.Sprintf(format, args...)})
	}
}

// lintDocument checks the whole document and returns the draft it is read as.
func lintDocument(doc map[string]any) (draft, []argProblem) {
	l := &schemaLint{}
	if v, ok := doc["$schema"]; ok {
		uri, isString := v.(string)
		d, known := draftOf(uri)
		switch {
		case !isString:
			l.bad("/$schema", "want string, got %s", jsonKind(v))
		case !known:
			l.bad("/$schema", "unknown $schema %s; use %q (or draft-07)", quote(uri), draft2020URI)
		default:
			l.draft = d
		}
	}
	l.schema("", doc, 0)
	return l.draft, l.problems
}

// schema checks the schema v found at `at`, depth levels below the top.
func (l *schemaLint) schema(at string, v any, depth int) {
	if depth > maxSchemaDepth {
		l.bad(at, "schemas nested more than %d deep", maxSchemaDepth)
		return
	}
	if _, ok := v.(bool); ok {
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		l.bad(at, "want object or boolean (a schema), got %s", jsonKind(v))
		return
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		l.keyword(at+"/"+escapeToken(k), k, obj[k], depth)
	}
	if id, ok := obj["$id"].(string); ok && at != "" && !strings.HasPrefix(id, "#") {
		l.bad(at+"/$id", "an embedded schema with its own $id is not supported; move it under $defs and refer to it with \"#/$defs/…\"")
	}
}

// keyword checks one keyword k of a schema, whose value v is at `at`.
func (l *schemaLint) keyword(at, k string, v any, depth int) {
	switch k {
	case "additionalProperties", "propertyNames", "not", "if", "then", "else", "contains",
		"unevaluatedProperties", "unevaluatedItems", "contentSchema":
		l.schema(at, v, depth+1)
	case "additionalItems":
		if l.draft == draft201909 {
			l.bad(at, `draft 2019-09's "additionalItems" is not supported; use draft 2020-12's "prefixItems" and "items"`)
			return
		}
		l.schema(at, v, depth+1)
	case "items":
		if list, ok := v.([]any); ok {
			switch l.draft {
			case draft2020:
				l.bad(at, `want object or boolean (a schema), got array; in draft 2020-12 a tuple is "prefixItems"`)
			case draft201909:
				l.bad(at, `draft 2019-09's tuple "items" is not supported; use draft 2020-12's "prefixItems"`)
			default:
				l.schemaList(at, list, depth, true)
			}
			return
		}
		l.schema(at, v, depth+1)
	case "allOf", "anyOf", "oneOf", "prefixItems":
		list, ok := v.([]any)
		if !ok {
			l.bad(at, "want array, got %s", jsonKind(v))
			return
		}
		l.schemaList(at, list, depth, k == "prefixItems")
	case "properties", "$defs", "definitions", "dependentSchemas", "patternProperties":
		obj, ok := v.(map[string]any)
		if !ok {
			l.bad(at, "want object, got %s", jsonKind(v))
			return
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			if k == "patternProperties" {
				l.pattern(at+"/"+escapeToken(name), name)
			}
			l.schema(at+"/"+escapeToken(name), obj[name], depth+1)
		}
	case "dependencies":
		obj, ok := v.(map[string]any)
		if !ok {
			l.bad(at, "want object, got %s", jsonKind(v))
			return
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			if list, ok := obj[name].([]any); ok {
				l.names(at+"/"+escapeToken(name), list)
			} else {
				l.schema(at+"/"+escapeToken(name), obj[name], depth+1)
			}
		}
	case "dependentRequired":
		obj, ok := v.(map[string]any)
		if !ok {
			l.bad(at, "want object, got %s", jsonKind(v))
			return
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			list, ok := obj[name].([]any)
			if !ok {
				l.bad(at+"/"+escapeToken(name), "want array, got %s", jsonKind(obj[name]))
				continue
			}
			l.names(at+"/"+escapeToken(name), list)
		}
	case "required":
		list, ok := v.([]any)
		if !ok {
			l.bad(at, "want array, got %s", jsonKind(v))
			return
		}
		l.names(at, list)
	case "type":
		l.typeKeyword(at, v)
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
		l.count(at, v)
	case "minimum", "maximum":
		l.number(at, v)
	case "exclusiveMinimum", "exclusiveMaximum":
		if _, isBool := v.(bool); isBool && l.draft == draft04 {
			l.bad(at, `draft-04's boolean %q is not supported; give the bound itself ("%[1]s": 3), as draft-06 and later do`, k)
			return
		}
		l.number(at, v)
	case "multipleOf":
		if f, ok := l.number(at, v); ok && f <= 0 {
			l.bad(at, "must be greater than 0, got %s", show(v))
		}
	case "pattern":
		if s, ok := v.(string); !ok {
			l.bad(at, "want string, got %s", jsonKind(v))
		} else {
			l.pattern(at, s)
		}
	case "enum", "examples":
		if _, ok := v.([]any); !ok {
			l.bad(at, "want array, got %s", jsonKind(v))
		}
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		if _, ok := v.(bool); !ok {
			l.bad(at, "want boolean, got %s", jsonKind(v))
		}
	case "$ref", "$dynamicRef":
		l.ref(at, v)
	case "$recursiveRef", "$recursiveAnchor":
		if l.draft == draft201909 {
			l.bad(at, `draft 2019-09's %q is not supported; use draft 2020-12's "$dynamicRef" and "$dynamicAnchor"`, k)
		}
	case "$anchor", "$dynamicAnchor":
		s, ok := v.(string)
		if !ok {
			l.bad(at, "want string, got %s", jsonKind(v))
		} else if !validAnchor(s) {
			l.bad(at, "%s is not a valid anchor name", quote(s))
		}
	case "$id", "$schema", "$comment", "title", "description", "format", "contentEncoding", "contentMediaType":
		if _, ok := v.(string); !ok {
			l.bad(at, "want string, got %s", jsonKind(v))
		}
	case "$vocabulary":
		l.bad(at, "$vocabulary (a metaschema's keyword) is not supported in a tool's schema")
	}
}

func (l *schemaLint) schemaList(at string, list []any, depth int, emptyOK bool) {
	if len(list) == 0 && !emptyOK {
		l.bad(at, "want at least one schema")
	}
	for i, s := range list {
		l.schema(at+"/"+strconv.Itoa(i), s, depth+1)
	}
}

// names checks an array of distinct strings.
func (l *schemaLint) names(at string, list []any) {
	seen := make(map[string]bool, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			l.bad(at+"/"+strconv.Itoa(i), "want string, got %s", jsonKind(x))
			return
		}
		if seen[s] {
			l.bad(at, "%s is listed twice", quote(s))
			return
		}
		seen[s] = true
	}
}

var typeNames = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

func (l *schemaLint) typeKeyword(at string, v any) {
	oneType := func(at string, x any) (string, bool) {
		s, ok := x.(string)
		if !ok || !slices.Contains(typeNames, s) {
			l.bad(at, "value must be one of %s", quoteAll(typeNames))
			return "", false
		}
		return s, true
	}
	list, isList := v.([]any)
	if !isList {
		oneType(at, v)
		return
	}
	seen := map[string]bool{}
	for i, x := range list {
		s, ok := oneType(at+"/"+strconv.Itoa(i), x)
		if !ok {
			return
		}
		if seen[s] {
			l.bad(at, "%s is listed twice", quote(s))
			return
		}
		seen[s] = true
	}
}

// count checks a non-negative integer the library keeps as an int32.
func (l *schemaLint) count(at string, v any) {
	n, ok := v.(json.Number)
	if !ok {
		l.bad(at, "want integer, got %s", jsonKind(v))
		return
	}
	f, err := strconv.ParseFloat(string(n), 64)
	switch {
	case err != nil || f != float64(int64(f)):
		l.bad(at, "want integer, got number")
	case f < 0:
		l.bad(at, "must be 0 or more, got %s", show(v))
	case f > 1<<31-1:
		l.bad(at, "must be at most %d, got %s", 1<<31-1, show(v))
	}
}

func (l *schemaLint) number(at string, v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		l.bad(at, "want number, got %s", jsonKind(v))
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		l.bad(at, "%s is out of range", show(v))
		return 0, false
	}
	return f, true
}

func (l *schemaLint) pattern(at, pattern string) {
	_, err := regexp.Compile(pattern)
	if err == nil {
		return
	}
	detail := err.Error()
	if se, ok := err.(*syntax.Error); ok {
		detail = string(se.Code)
		if se.Expr != "" {
			detail += " " + quote(se.Expr)
		}
	}
	l.bad(at, "pattern %s cannot be compiled: %s (patterns use Go's RE2 syntax, which has no lookaround or backreferences)", quote(pattern), detail)
}

// ref checks that a reference stays inside the document: "#", "#/json/pointer" or "#anchor".
func (l *schemaLint) ref(at string, v any) {
	s, ok := v.(string)
	if !ok {
		l.bad(at, "want string, got %s", jsonKind(v))
		return
	}
	if !strings.HasPrefix(s, "#") {
		l.bad(at, "external $ref %s is not allowed; keep the schema self-contained", quote(s))
	}
}

// validAnchor reports whether s is an anchor name: a letter or underscore, then letters,
// digits, "-", "_" and ".".
func validAnchor(s string) bool {
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// escapeToken writes a JSON pointer token: ~ as ~0, / as ~1.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
