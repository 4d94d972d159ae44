package jsonschema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/phasechat/phasechat/internal/format"
)

// maxDepth bounds how many schemas may be applied one inside another while validating, so
// that a deep value or a $dynamicRef loop ends in a problem instead of exhausting the stack.
const maxDepth = 4096

// maxEvaluations bounds the schemas applied in one Validate: alternatives nested inside
// alternatives multiply, and a small schema must not be able to stall the caller.
const maxEvaluations = 1_000_000

// validator is one Validate call's state.
type validator struct {
	path        []string    // the instance location, one token per level
	scope       []*resource // the dynamic scope: resources entered, outermost first
	depth       int
	evaluations int
	exhausted   bool // maxEvaluations was reached: the result is that problem alone
	quiet       bool // only whether the value matches counts: problems are not worded
}

// quietProblem is every problem found quietly.
var quietProblem = Problem{Message: "does not match"}

// location is the current instance location as a JSON pointer.
func (v *validator) location() string {
	if len(v.path) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range v.path {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func (v *validator) problem(format string, args ...any) Problem {
	if v.quiet {
		return quietProblem
	}
	return Problem{Location: v.location(), Message: fmt.Sprintf(format, args...)}
}

// eval applies n to inst at the current location. It returns the problems found and, when
// collect is set and there are none, what n evaluated.
func (v *validator) eval(n *node, inst any, collect bool) (probs []Problem, ev *evaluated) {
	if n.isBool {
		if n.allow {
			return nil, nil // true evaluates nothing
		}
		return []Problem{v.problem("no value is allowed here")}, nil
	}
	if v.evaluations++; v.evaluations > maxEvaluations {
		v.exhausted = true
		return []Problem{{Message: tooComplex}}, nil
	}
	if v.depth >= maxDepth {
		return []Problem{v.problem("nested too deeply to validate (more than %d levels of schema)", maxDepth)}, nil
	}
	v.depth++
	defer func() { v.depth-- }()
	if len(v.scope) == 0 || v.scope[len(v.scope)-1] != n.res {
		v.scope = append(v.scope, n.res)
		defer func() { v.scope = v.scope[:len(v.scope)-1] }()
	}
	if collect || n.unevaluatedItems != nil || n.unevaluatedProps != nil {
		ev = &evaluated{}
	}

	if n.ref != nil {
		target := n.ref
		if n.dynamic != "" {
			target = v.dynamicTarget(n.dynamic, target)
		} else if n.recursive {
			target = v.recursiveTarget(target)
		}
		p, e := v.eval(target, inst, ev != nil)
		probs = append(probs, p...)
		ev.take(p, e)
	}
	k := kindOf(inst)
	if n.types != 0 && !n.types.allows(k, inst) && v.quiet {
		probs = append(probs, quietProblem)
	} else if n.types != 0 && !n.types.allows(k, inst) {
		want := n.types.names()
		probs = append(probs, Problem{Location: v.location(),
			Message:   "want " + strings.Join(want, " or ") + ", got " + k.String(),
			wantTypes: want, gotType: k.String()})
	}
	if n.hasEnum && !slices.ContainsFunc(n.enum, func(x any) bool { return equal(x, inst) }) {
		probs = append(probs, v.allowedProblem(n.enum))
	}
	if n.hasConst && !equal(n.constant, inst) {
		probs = append(probs, v.allowedProblem([]any{n.constant}))
	}
	switch k {
	case kindNumber:
		probs = v.number(n, inst, probs)
	case kindString:
		probs = v.string(n, inst.(string), probs)
	case kindArray:
		probs = v.array(n, inst.([]any), ev, probs)
	case kindObject:
		probs = v.object(n, inst.(map[string]any), ev, probs)
	}
	probs = v.combinators(n, inst, ev, probs)
	if k == kindArray && n.unevaluatedItems != nil {
		probs = v.unevaluatedItems(n, inst.([]any), ev, probs)
	}
	if k == kindObject && n.unevaluatedProps != nil {
		probs = v.unevaluatedProps(n, inst.(map[string]any), ev, probs)
	}
	if len(probs) > 0 {
		return probs, nil
	}
	if !collect {
		return nil, nil
	}
	return nil, ev
}

// tooComplex says that maxEvaluations was reached.
const tooComplex = "the value is too complex to validate (more than 1,000,000 schema evaluations)"

// dynamicTarget is the schema a $dynamicRef to anchor name means here: the outermost resource
// in the dynamic scope that declares it, or the static target when none does.
func (v *validator) dynamicTarget(name string, static *node) *node {
	for _, res := range v.scope {
		if n, ok := res.dynamicNodes[name]; ok {
			return n
		}
	}
	return static
}

// recursiveTarget is the root a $recursiveRef means here: the outermost resource in the
// dynamic scope whose root says "$recursiveAnchor": true.
func (v *validator) recursiveTarget(static *node) *node {
	for _, res := range v.scope {
		if res.recursiveAnchor {
			return res.root
		}
	}
	return static
}

func (t typeSet) allows(k kind, inst any) bool {
	switch k {
	case kindNull:
		return t&typeNull != 0
	case kindBoolean:
		return t&typeBoolean != 0
	case kindString:
		return t&typeString != 0
	case kindArray:
		return t&typeArray != 0
	case kindObject:
		return t&typeObject != 0
	case kindNumber:
		if t&typeNumber != 0 {
			return true
		}
		if t&typeInteger != 0 {
			d, ok := numberOf(inst)
			return ok && d.isInteger()
		}
	}
	return false
}

func (v *validator) number(n *node, inst any, probs []Problem) []Problem {
	if n.multipleOf == nil && n.minimum == nil && n.maximum == nil && n.exclusiveMin == nil && n.exclusiveMax == nil {
		return probs
	}
	d, ok := numberOf(inst)
	if !ok {
		return probs
	}
	got := show(inst)
	if b := n.minimum; b != nil && d.cmp(b.value) < 0 {
		probs = append(probs, v.problem("minimum: got %s, want %s", got, b.text))
	}
	if b := n.maximum; b != nil && d.cmp(b.value) > 0 {
		probs = append(probs, v.problem("maximum: got %s, want %s", got, b.text))
	}
	if b := n.exclusiveMin; b != nil && d.cmp(b.value) <= 0 {
		probs = append(probs, v.problem("exclusiveMinimum: got %s, want more than %s", got, b.text))
	}
	if b := n.exclusiveMax; b != nil && d.cmp(b.value) >= 0 {
		probs = append(probs, v.problem("exclusiveMaximum: got %s, want less than %s", got, b.text))
	}
	if b := n.multipleOf; b != nil && !d.multipleOf(b.value) {
		probs = append(probs, v.problem("multipleOf: got %s, want a multiple of %s", got, b.text))
	}
	return probs
}

func (v *validator) string(n *node, s string, probs []Problem) []Problem {
	if n.minLength >= 0 || n.maxLength >= 0 {
		l := runeCount(s)
		if n.minLength >= 0 && l < n.minLength {
			probs = append(probs, v.problem("minLength: got %d, want %d", l, n.minLength))
		}
		if n.maxLength >= 0 && l > n.maxLength {
			probs = append(probs, v.problem("maxLength: got %d, want %d", l, n.maxLength))
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		probs = append(probs, v.problem("%s does not match pattern %s", show(s), show(n.pattern.String())))
	}
	return probs
}

func (v *validator) array(n *node, items []any, ev *evaluated, probs []Problem) []Problem {
	if n.minItems >= 0 && len(items) < n.minItems {
		probs = append(probs, v.problem("minItems: got %d, want %d", len(items), n.minItems))
	}
	if n.maxItems >= 0 && len(items) > n.maxItems {
		probs = append(probs, v.problem("maxItems: got %d, want %d", len(items), n.maxItems))
	}
	if n.uniqueItems {
		probs = v.unique(items, probs)
	}
	for i, s := range n.prefixItems {
		if i >= len(items) {
			break
		}
		probs = v.child(s, strconv.Itoa(i), items[i], probs)
	}
	if ev != nil && len(n.prefixItems) > 0 {
		ev.items = max(ev.items, min(len(n.prefixItems), len(items)))
	}
	if n.items != nil && len(items) > len(n.prefixItems) {
		if n.items.isBool && !n.items.allow {
			probs = append(probs, v.problem("at most %d %s allowed, got %d",
				len(n.prefixItems), format.Plural(len(n.prefixItems), "item", "items"), len(items)))
		} else {
			for i := len(n.prefixItems); i < len(items); i++ {
				probs = v.child(n.items, strconv.Itoa(i), items[i], probs)
			}
		}
		if ev != nil {
			ev.allItems = true
		}
	}
	if n.contains != nil {
		probs = v.containsItems(n, items, ev, probs)
	}
	return probs
}

// child applies s to the value at key below the current location.
func (v *validator) child(s *node, key string, inst any, probs []Problem) []Problem {
	v.path = append(v.path, key)
	p, _ := v.eval(s, inst, false)
	v.path = v.path[:len(v.path)-1]
	return append(probs, p...)
}

func (v *validator) unique(items []any, probs []Problem) []Problem {
	seen := make(map[string]int, len(items))
	var b strings.Builder
	for i, x := range items {
		b.Reset()
		canonical(&b, x)
		if j, dup := seen[b.String()]; dup {
			return append(probs, v.problem("uniqueItems: items %d and %d are equal", j, i))
		}
		seen[b.String()] = i
	}
	return probs
}

func (v *validator) containsItems(n *node, items []any, ev *evaluated, probs []Problem) []Problem {
	matched := 0
	for i, x := range items {
		v.path = append(v.path, strconv.Itoa(i))
		p, _ := v.quietly(n.contains, x, false)
		v.path = v.path[:len(v.path)-1]
		if len(p) == 0 {
			matched++
			if ev != nil && n.res.draft == draft2020 {
				ev.addItem(i) // before 2020-12, unevaluatedItems ignores what contains matched
			}
		}
	}
	least := 1
	if n.minContains >= 0 {
		least = n.minContains
	}
	switch {
	case matched < least && matched == 0:
		probs = append(probs, v.problem(`contains: no item matches the "contains" schema`))
	case matched < least:
		probs = append(probs, v.problem(`minContains: %d %s the "contains" schema, want at least %d`,
			matched, format.Plural(matched, "item matches", "items match"), least))
	case n.maxContains >= 0 && matched > n.maxContains:
		probs = append(probs, v.problem(`maxContains: %d %s the "contains" schema, want at most %d`,
			matched, format.Plural(matched, "item matches", "items match"), n.maxContains))
	}
	return probs
}

func (v *validator) object(n *node, obj map[string]any, ev *evaluated, probs []Problem) []Problem {
	if len(n.required) > 0 {
		var missing []string
		for _, r := range n.required {
			if _, ok := obj[r]; !ok {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			probs = append(probs, v.problem("missing %s %s", format.Plural(len(missing), "property", "properties"), quoteSorted(missing)))
		}
	}
	for _, dep := range n.dependentRequired {
		if _, ok := obj[dep.property]; !ok {
			continue
		}
		var missing []string
		for _, r := range dep.required {
			if _, ok := obj[r]; !ok {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			probs = append(probs, v.problem("missing %s %s, required when %s is present",
				format.Plural(len(missing), "property", "properties"), quoteSorted(missing), strconv.Quote(dep.property)))
		}
	}
	if n.minProps >= 0 && len(obj) < n.minProps {
		probs = append(probs, v.problem("minProperties: got %d, want %d", len(obj), n.minProps))
	}
	if n.maxProps >= 0 && len(obj) > n.maxProps {
		probs = append(probs, v.problem("maxProperties: got %d, want %d", len(obj), n.maxProps))
	}
	if n.propertyNames == nil && n.properties == nil && n.patternProperties == nil && n.additional == nil && len(n.dependentSchemas) == 0 {
		return probs
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if n.propertyNames != nil {
		for _, k := range keys {
			if p, _ := v.eval(n.propertyNames, k, false); len(p) > 0 {
				probs = append(probs, v.problem("property name %s: %s", show(k), p[0].Message))
			}
		}
	}
	var unexpected []string
	for _, k := range keys {
		matched := false
		if s, ok := n.properties[k]; ok {
			matched = true
			probs = v.child(s, k, obj[k], probs)
		}
		for _, pp := range n.patternProperties {
			if pp.re.MatchString(k) {
				matched = true
				probs = v.child(pp.schema, k, obj[k], probs)
			}
		}
		if matched {
			if ev != nil {
				ev.addProp(k)
			}
			continue
		}
		if n.additional == nil {
			continue
		}
		if ev != nil {
			ev.addProp(k)
		}
		if n.additional.isBool && !n.additional.allow {
			unexpected = append(unexpected, k)
			continue
		}
		probs = v.child(n.additional, k, obj[k], probs)
	}
	if len(unexpected) > 0 {
		probs = append(probs, v.problem("unexpected %s %s", format.Plural(len(unexpected), "property", "properties"), quoteSorted(unexpected)))
	}
	for _, dep := range n.dependentSchemas {
		if _, ok := obj[dep.property]; !ok {
			continue
		}
		p, e := v.eval(dep.schema, obj, ev != nil)
		probs = append(probs, p...)
		ev.take(p, e)
	}
	return probs
}

// quoteSorted lists names quoted, sorted, joined with ", ". Long lists are cut short.
func quoteSorted(names []string) string {
	s := slices.Clone(names)
	slices.Sort(s)
	const listed = 8
	q := make([]string, 0, min(len(s), listed+1))
	for i, n := range s {
		if i == listed {
			q = append(q, fmt.Sprintf("… (%d more)", len(s)-listed))
			break
		}
		q = append(q, show(n))
	}
	return strings.Join(q, ", ")
}

func joinInts(xs []int) string {
	const listed = 8
	q := make([]string, 0, min(len(xs), listed+1))
	for i, x := range xs {
		if i == listed {
			q = append(q, fmt.Sprintf("… (%d more)", len(xs)-listed))
			break
		}
		q = append(q, strconv.Itoa(x))
	}
	return strings.Join(q, ", ")
}
