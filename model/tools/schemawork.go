package tools

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// The library validates by recursion with no bound of its own: alternatives inside
// alternatives multiply (30 levels of two anyOf branches are 2^30 evaluations) and a
// recursive schema follows a value as deep as it goes. So the evaluations it will make are
// counted first, by the same walk over schema and value (with every subschema that could
// apply counted as applying), and a value over either bound is refused before it starts.
const (
	maxEvaluations = 100_000
	maxValueDepth  = 256
)

// tooComplex says that maxEvaluations would be passed.
const tooComplex = "the value is too complex to validate (more than 100,000 schema evaluations)"

// withinBounds returns the problem of a value the library's validation would spend more than
// the bounds on, or nil.
func (s *argSchema) withinBounds(v any) error {
	c := &workCount{schema: s, left: maxEvaluations}
	c.visit(s.root, v, 0)
	switch {
	case c.tooDeep:
		return argsProblems([]argProblem{{msg: fmt.Sprintf("nested too deeply to validate (more than %d levels)", maxValueDepth)}})
	case c.left < 0:
		return argsProblems([]argProblem{{msg: tooComplex}})
	}
	return nil
}

type workCount struct {
	schema  *argSchema
	left    int
	tooDeep bool
}

// visit counts the evaluation of s against v and of everything it leads to; false once a
// bound is passed.
func (c *workCount) visit(s *jsonschema.Schema, v any, depth int) bool {
	if c.left--; c.left < 0 {
		return false
	}
	if depth > maxValueDepth {
		c.tooDeep = true
		return false
	}
	ok := true
	c.schema.eachInPlace(s, func(sub *jsonschema.Schema) {
		ok = ok && c.visit(sub, v, depth)
	})
	if !ok {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if sub := s.Properties[k]; sub != nil && !c.visit(sub, e, depth+1) {
				return false
			}
			for _, sub := range s.PatternProperties {
				if !c.visit(sub, e, depth+1) {
					return false
				}
			}
			for _, sub := range []*jsonschema.Schema{s.AdditionalProperties, s.UnevaluatedProperties} {
				if sub != nil && !c.visit(sub, e, depth+1) {
					return false
				}
			}
			if s.PropertyNames != nil && !c.visit(s.PropertyNames, k, depth+1) {
				return false
			}
		}
	case []any:
		for i, e := range x {
			for _, tuple := range [][]*jsonschema.Schema{s.PrefixItems, s.ItemsArray} {
				if i < len(tuple) && !c.visit(tuple[i], e, depth+1) {
					return false
				}
			}
			for _, sub := range []*jsonschema.Schema{s.Items, s.AdditionalItems, s.Contains, s.UnevaluatedItems} {
				if sub != nil && !c.visit(sub, e, depth+1) {
					return false
				}
			}
		}
	}
	return true
}
