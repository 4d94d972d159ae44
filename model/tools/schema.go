package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/phase"
)

// emptyObjectSchema is the schema of a tool that takes no arguments.
const emptyObjectSchema = `{"type":"object","properties":{}}`

// argSchema is a tool's compiled parameter schema. The library (github.com/google/jsonschema-go)
// decides whether arguments are valid; what is kept beside it words why not, at its place in
// the arguments, and bounds the work before the library starts. Immutable; safe for
// concurrent use.
type argSchema struct {
	resolved *jsonschema.Resolved
	root     *jsonschema.Schema
	draft07  bool                                      // a $ref's siblings are ignored
	refs     map[*jsonschema.Schema]*jsonschema.Schema // the target of each $ref and $dynamicRef
}

// compileSchema checks that src is a JSON Schema for an object (draft 2020-12 unless it says
// otherwise; see lintDocument for the others) and compiles it. It returns the schema re-encoded
// compactly, for Definitions. $ref may point only inside the schema itself: nothing is loaded
// from files or the network.
func compileSchema(src []byte) (*argSchema, json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("not valid JSON: invalid character after top-level value")
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, errors.New(`must be a JSON object such as {"type": "object", "properties": {...}}`)
	}
	if obj["type"] != "object" {
		return nil, nil, errors.New(`the top-level "type" must be "object" (the arguments are always an object)`)
	}
	d, probs := lintDocument(obj)
	if len(probs) > 0 {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %s", joinProblems(probs))
	}
	var root jsonschema.Schema
	if err := json.Unmarshal(src, &root); err != nil {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %s", format.OneLine(err.Error(), maxLibraryWords))
	}
	root.Schema = d.libraryURI()
	s := &argSchema{root: &root, draft07: d >= draft07}
	if probs := s.resolveRefs(d); len(probs) > 0 {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %s", joinProblems(probs))
	}
	resolved, err := root.Resolve(nil)
	if err != nil {
		return nil, nil, fmt.Errorf("not a valid JSON Schema: %s", format.OneLine(err.Error(), maxLibraryWords))
	}
	s.resolved = resolved
	compact, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	return s, compact, nil
}

// maxLibraryWords is how much of the library's own words a message quotes.
const maxLibraryWords = 300

// validate checks decoded arguments (numbers as json.Number) against the schema. Its error
// lists every problem found, each at its place in the arguments.
func (s *argSchema) validate(args map[string]any) error {
	var probs []argProblem
	value, _ := plainNumbers(args, "", &probs)
	if len(probs) > 0 {
		return argsProblems(probs)
	}
	if err := s.withinBounds(value); err != nil {
		return err
	}
	err := s.resolved.Validate(value)
	if err == nil {
		return nil
	}
	w := &words{schema: s, left: maxEvaluations}
	if probs = w.check(s.root, value, ""); len(probs) > 0 {
		return argsProblems(probs)
	}
	return argsProblems([]argProblem{libraryProblem(err)})
}

// plainNumbers is v with every json.Number made an int64 or a float64, which the library
// types by value (a json.Number is a Go string to it). A number no float64 holds is a problem.
// Containers are copied only when something in them changes, which changed reports.
func plainNumbers(v any, at string, probs *[]argProblem) (_ any, changed bool) {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i, true
		}
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil || math.IsInf(f, 0) {
			*probs = append(*probs, argProblem{at: at, msg: show(string(x)) + " is too large a number"})
			return 0, true
		}
		return f, true
	case []any:
		var out []any
		for i, e := range x {
			p, ch := plainNumbers(e, at+"/"+strconv.Itoa(i), probs)
			if ch && out == nil {
				out = slices.Clone(x)
			}
			if ch {
				out[i] = p
			}
		}
		if out != nil {
			return out, true
		}
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			p, ch := plainNumbers(e, at+"/"+escapeToken(k), probs)
			if ch && out == nil {
				out = maps.Clone(x)
			}
			if ch {
				out[k] = p
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// resolveRefs finds the target of every $ref and $dynamicRef inside the document (there is no
// other kind: lintDocument refused them), and refuses a reference that points to nothing or
// that leads back to its own schema without descending into the value, which no value could
// end.
func (s *argSchema) resolveRefs(d draft) []argProblem {
	paths := map[string]*jsonschema.Schema{}
	where := map[*jsonschema.Schema]string{}
	anchors := map[string]*jsonschema.Schema{}
	var walk func(at string, x *jsonschema.Schema)
	walk = func(at string, x *jsonschema.Schema) {
		paths[at], where[x] = x, at
		switch {
		case d >= draft07 && strings.HasPrefix(x.ID, "#"):
			anchors[x.ID[1:]] = x
		case d < draft07:
			for _, a := range []string{x.Anchor, x.DynamicAnchor} {
				if a != "" {
					anchors[a] = x
				}
			}
		}
		eachSubschema(x, func(key string, c *jsonschema.Schema) { walk(at+key, c) })
	}
	walk("", s.root)

	s.refs = map[*jsonschema.Schema]*jsonschema.Schema{}
	var probs []argProblem
	for x, at := range where {
		for key, ref := range map[string]string{"/$ref": x.Ref, "/$dynamicRef": x.DynamicRef} {
			if ref == "" {
				continue
			}
			var target *jsonschema.Schema
			if u, err := url.Parse(ref); err == nil {
				if u.Fragment == "" || strings.HasPrefix(u.Fragment, "/") {
					target = paths[u.Fragment]
				} else {
					target = anchors[u.Fragment]
				}
			}
			if target == nil {
				probs = append(probs, argProblem{at: at + key, msg: show(ref) + " points to nothing in the schema"})
				continue
			}
			s.refs[x] = target
		}
	}
	if len(probs) > 0 {
		slices.SortFunc(probs, func(a, b argProblem) int { return strings.Compare(a.at, b.at) })
		return probs
	}
	// A loop of references is found by following what applies to the same value.
	const (
		unseen = iota
		open
		done
	)
	state := map[*jsonschema.Schema]int{}
	var visit func(x *jsonschema.Schema) bool
	visit = func(x *jsonschema.Schema) bool {
		switch state[x] {
		case open:
			return false
		case done:
			return true
		}
		state[x] = open
		ok := true
		s.eachInPlace(x, func(c *jsonschema.Schema) {
			if ok && !visit(c) {
				ok = false
				if len(probs) == 0 && s.refs[x] == c {
					probs = append(probs, argProblem{at: where[x] + "/$ref", msg: "refers back to itself without descending into the value"})
				}
			}
		})
		state[x] = done
		return ok
	}
	for x := range where {
		if !visit(x) && len(probs) == 0 {
			probs = append(probs, argProblem{at: where[x], msg: "refers back to itself without descending into the value"})
		}
		if len(probs) > 0 {
			break
		}
	}
	return probs
}

// eachInPlace calls f with every subschema that applies to the same value as x: its
// references, the combinators and the conditionals.
func (s *argSchema) eachInPlace(x *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if t := s.refs[x]; t != nil {
		f(t)
	}
	for _, list := range [...][]*jsonschema.Schema{x.AllOf, x.AnyOf, x.OneOf} {
		for _, c := range list {
			f(c)
		}
	}
	for _, c := range [...]*jsonschema.Schema{x.Not, x.If, x.Then, x.Else} {
		if c != nil {
			f(c)
		}
	}
	for _, named := range [...]map[string]*jsonschema.Schema{x.DependentSchemas, x.DependencySchemas} {
		for _, c := range named {
			f(c)
		}
	}
}

// eachSubschema calls f with every subschema written in x and its JSON pointer below x.
func eachSubschema(x *jsonschema.Schema, f func(key string, c *jsonschema.Schema)) {
	one := func(key string, c *jsonschema.Schema) {
		if c != nil {
			f(key, c)
		}
	}
	list := func(key string, cs []*jsonschema.Schema) {
		for i, c := range cs {
			one(key+"/"+strconv.Itoa(i), c)
		}
	}
	named := func(key string, cs map[string]*jsonschema.Schema) {
		for name, c := range cs {
			one(key+"/"+escapeToken(name), c)
		}
	}
	list("/allOf", x.AllOf)
	list("/anyOf", x.AnyOf)
	list("/oneOf", x.OneOf)
	one("/not", x.Not)
	one("/if", x.If)
	one("/then", x.Then)
	one("/else", x.Else)
	named("/dependentSchemas", x.DependentSchemas)
	named("/dependencies", x.DependencySchemas)

	one("/items", x.Items)
	list("/items", x.ItemsArray)
	list("/prefixItems", x.PrefixItems)
	one("/additionalItems", x.AdditionalItems)
	one("/contains", x.Contains)
	one("/unevaluatedItems", x.UnevaluatedItems)
	named("/properties", x.Properties)
	named("/patternProperties", x.PatternProperties)
	one("/additionalProperties", x.AdditionalProperties)
	one("/propertyNames", x.PropertyNames)
	one("/unevaluatedProperties", x.UnevaluatedProperties)
	named("/$defs", x.Defs)
	named("/definitions", x.Definitions)
	one("/contentSchema", x.ContentSchema)
}

// callArgs is the call's parsed arguments: the caller's, or (when it has none) Arguments parsed here.
func callArgs(call Call) (phase.Args, error) {
	if call.Args != nil && call.Args.Object != nil {
		return *call.Args, nil
	}
	a, err := phase.ParseArgs(call.Arguments)
	var bad *phase.ArgsError
	if errors.As(err, &bad) {
		return a, fmt.Errorf("the arguments are not valid JSON (%s)", bad.Detail)
	}
	return a, err
}

// redactArgs hides the secrets in a call's arguments: in every string, key and number of the
// decoded object (a key written with \u escapes is still a key) and in its JSON text. The
// arguments are shared with the call's other readers, so a change is made to a copy.
func redactArgs(set *secret.Set, a phase.Args) phase.Args {
	if set.Empty() {
		return a
	}
	changed := false
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case string:
			if r := set.Redact(v); r != v {
				changed = true
				return r
			}
		case json.Number:
			if r := set.Redact(string(v)); r != string(v) {
				changed = true
				return r
			}
		case []any:
			out := make([]any, len(v))
			for i := range v {
				out[i] = walk(v[i])
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				if rk := set.Redact(k); rk != k {
					changed = true
					k = rk
				}
				out[k] = walk(x)
			}
			return out
		}
		return v
	}
	obj := walk(a.Object).(map[string]any)
	if !changed {
		if r := set.Redact(a.JSON); r != a.JSON {
			return phase.Args{Object: obj, JSON: r} // a secret across tokens: hidden, whatever it breaks
		}
		return a
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return phase.Args{Object: obj, JSON: set.Redact(a.JSON)}
	}
	return phase.Args{Object: obj, JSON: set.Redact(string(b))}
}
