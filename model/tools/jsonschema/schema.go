// Package jsonschema compiles JSON Schema documents (drafts 2020-12, 2019-09, 07, 06 and 04)
// and validates decoded JSON values against them, reporting every problem with where in the
// value it is. It is pure: no I/O (a $ref that leaves the document is refused), no goroutines,
// and nothing is prepared before the first Compile. docs/architecture.md, Tool schemas, says
// why phasechat owns it.
//
// Documents and values are what encoding/json decodes into an `any` (numbers best as
// json.Number, which keeps them exact; any Go number type is accepted). `format` is an
// annotation and is not asserted; unknown keywords are ignored.
package jsonschema

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Schema is a compiled schema. It is immutable and safe for concurrent use.
type Schema struct {
	root *node
}

// Compile checks doc against the rules of its draft (named by `$schema`, 2020-12 when absent)
// as the draft's metaschema would, resolves every reference inside it and compiles it. Its
// error is a *SchemaError listing every problem found, each at its place in doc.
func Compile(doc any) (*Schema, error) {
	c := newCompiler(doc)
	root := c.compileAll()
	if len(c.problems) > 0 {
		return nil, &SchemaError{Problems: c.problems}
	}
	return &Schema{root: root}, nil
}

// Validate checks instance against the schema. Its error is a *ValidationError listing every
// problem, each at its place in instance.
func (s *Schema) Validate(instance any) error {
	v := validator{}
	probs, _ := v.eval(s.root, instance, false)
	if v.exhausted {
		return &ValidationError{Problems: []Problem{{Message: tooComplex}}}
	}
	if len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

// Problem is one thing wrong, at a place: Location is a JSON pointer ("" for the whole value
// or document, "/a/0" for the first item of property a).
type Problem struct {
	Location string
	Message  string

	// A type mismatch and a value not allowed keep their parts, so that failed alternatives
	// can be summed up in one.
	wantTypes []string
	gotType   string
	allowed   []any
}

// String is the problem in words: `at "/a": want string, got number`, or the message alone at
// the top level.
func (p Problem) String() string {
	if p.Location == "" {
		return p.Message
	}
	return "at " + strconv.Quote(cut(p.Location, maxShownLocation)) + ": " + p.Message
}

// maxShownLocation is how much of a location a problem's words show: a hostile value's keys
// can be long.
const maxShownLocation = 160

// cut shortens s to at most n bytes, at a character boundary, marking the cut with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ValidationError is a value that does not match its schema.
type ValidationError struct {
	Problems []Problem // at least one, in a stable order
}

// maxListedProblems is how many problems an error's text lists by name.
const maxListedProblems = 10

// Error lists the first problems joined with "; ".
func (e *ValidationError) Error() string { return joinProblems(e.Problems, maxListedProblems) }

// SchemaError is a document that is not a schema this package can use.
type SchemaError struct {
	Problems []Problem // at least one, in document order
}

// Error lists the first problems joined with "; ".
func (e *SchemaError) Error() string { return joinProblems(e.Problems, maxListedProblems) }

// joinProblems lists the problems joined with "; ", at most limit of them.
func joinProblems(probs []Problem, limit int) string {
	var b strings.Builder
	for i, p := range probs {
		if i == limit {
			b.WriteString("; and " + strconv.Itoa(len(probs)-limit) + " more")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// escapeToken writes a JSON pointer token: ~ as ~0, / as ~1.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
