package jsonschema

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// node is one compiled schema. A keyword the schema does not use is at its zero value (the
// counts at -1).
type node struct {
	ptr string    // where it is in the document
	res *resource // the resource it belongs to: its dynamic scope

	isBool, allow bool // a boolean schema, and which

	ref       *node  // $ref, or the static target of $dynamicRef / $recursiveRef
	dynamic   string // $dynamicRef's anchor when the target declares it as $dynamicAnchor
	recursive bool   // $recursiveRef whose target says "$recursiveAnchor": true

	types    typeSet
	enum     []any
	hasEnum  bool
	constant any
	hasConst bool

	multipleOf, minimum, maximum, exclusiveMin, exclusiveMax *bound

	minLength, maxLength int
	pattern              *regexp.Regexp

	prefixItems              []*node
	items                    *node // the items after prefixItems
	contains                 *node
	minContains, maxContains int
	minItems, maxItems       int
	uniqueItems              bool

	properties        map[string]*node
	propertyOrder     []string // properties' names, sorted
	patternProperties []patternSchema
	additional        *node
	propertyNames     *node
	required          []string
	minProps          int
	maxProps          int
	dependentRequired []dependency
	dependentSchemas  []dependency

	allOf, anyOf, oneOf []*node
	not                 *node
	ifThen, then, else_ *node

	unevaluatedItems, unevaluatedProps *node
}

// bound is a number from the schema: its exact value and its text for messages.
type bound struct {
	value decimal
	text  string
}

type patternSchema struct {
	re     *regexp.Regexp
	schema *node
}

// dependency is what one property's presence brings: more required names or a schema.
type dependency struct {
	property string
	required []string
	schema   *node
}

// typeSet is the set of "type" names a schema allows; 0 is every type.
type typeSet uint8

var typeNames = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// names are the type names in t, in typeNames order.
func (t typeSet) names() []string {
	var out []string
	for i, n := range typeNames {
		if t&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

const (
	typeArray typeSet = 1 << iota
	typeBoolean
	typeInteger
	typeNull
	typeNumber
	typeObject
	typeString
)

// compiler turns one document into nodes.
type compiler struct {
	doc       any
	resources map[string]*resource // by URI
	anchors   map[string]string    // "uri#name" → location
	schemaAt  map[string]*resource // every schema location walked → its resource
	order     []string             // the same locations, in the order they were walked
	nodes     map[string]*node
	problems  []Problem
}

func newCompiler(doc any) *compiler {
	c := &compiler{
		doc:       doc,
		resources: map[string]*resource{},
		anchors:   map[string]string{},
		schemaAt:  map[string]*resource{},
		nodes:     map[string]*node{},
	}
	d := draft2020
	if obj, ok := doc.(map[string]any); ok {
		if s, present := obj["$schema"]; present {
			str, isString := s.(string)
			known := false
			if isString {
				d, known = draftOf(str)
			}
			if !known {
				c.problem("/$schema", "unknown $schema %s: name draft 2020-12, 2019-09, 07, 06 or 04", show(s))
				d = draft2020
			}
		}
	}
	root := &resource{uri: rootURI, draft: d}
	c.resources[rootURI] = root
	c.register(doc, "", root)
	return c
}

// compileAll compiles every schema in the document, the unreachable ones too (a metaschema
// checks them all), and then refuses reference loops that would never consume the value.
func (c *compiler) compileAll() *node {
	root := c.compile("")
	for i := 0; i < len(c.order); i++ {
		c.compile(c.order[i])
	}
	for _, res := range c.resources {
		res.root = c.compile(res.ptr)
		for name, ptr := range res.dynamicAnchors {
			if res.dynamicNodes == nil {
				res.dynamicNodes = map[string]*node{}
			}
			res.dynamicNodes[name] = c.compile(ptr)
		}
	}
	if len(c.problems) == 0 {
		c.checkLoops()
	}
	slices.SortStableFunc(c.problems, func(a, b Problem) int { return strings.Compare(a.Location, b.Location) })
	return root
}

func (c *compiler) problem(at, format string, args ...any) {
	c.problems = append(c.problems, Problem{Location: at, Message: fmt.Sprintf(format, args...)})
}

// compile is the node at ptr, compiling it the first time it is asked for.
func (c *compiler) compile(ptr string) *node {
	if n, ok := c.nodes[ptr]; ok {
		return n
	}
	n := newNode(ptr, c.resourceFor(ptr))
	c.nodes[ptr] = n
	v, _ := c.valueAt(ptr)
	switch s := v.(type) {
	case bool:
		n.isBool, n.allow = true, s
	case map[string]any:
		c.fill(n, s)
	default:
		c.problem(ptr, "want object or boolean (a schema), got %s", kindOf(v))
	}
	return n
}

func newNode(ptr string, res *resource) *node {
	return &node{ptr: ptr, res: res, minLength: -1, maxLength: -1, minItems: -1, maxItems: -1,
		minContains: -1, maxContains: -1, minProps: -1, maxProps: -1}
}

// alsoApply makes n's $ref one of its allOf, freeing n.ref for a $dynamicRef or
// $recursiveRef beside it.
func (n *node) alsoApply() {
	if n.ref != nil {
		moved := newNode(n.ptr, n.res)
		moved.ref = n.ref
		n.allOf = append(n.allOf, moved)
	}
}

// fill compiles the keywords of the schema object obj into n.
func (c *compiler) fill(n *node, obj map[string]any) {
	d := n.res.draft
	at := func(k string) string { return n.ptr + "/" + escapeToken(k) }
	if r, ok := obj["$ref"]; ok {
		if s, ok := c.str(at("$ref"), r); ok {
			if target, ok := c.resolveRef(at("$ref"), s, n.res); ok {
				n.ref = c.compile(target)
			}
		}
		if d <= draft07 {
			return // beside $ref every keyword is ignored
		}
	}
	if d == draft2020 {
		if r, ok := obj["$dynamicRef"]; ok {
			c.dynamicRef(n, at("$dynamicRef"), r)
		}
	}
	if d == draft2019 {
		if r, ok := obj["$recursiveRef"]; ok {
			c.recursiveRef(n, at("$recursiveRef"), r)
		}
		if r, ok := obj["$recursiveAnchor"]; ok {
			c.want(at("$recursiveAnchor"), r, kindBoolean)
		}
	}
	for _, k := range []string{"$schema", "$comment", "title", "description", "format", "contentMediaType", "contentEncoding"} {
		if v, ok := obj[k]; ok {
			c.want(at(k), v, kindString)
		}
	}
	if v, ok := obj[idKey(d)]; ok {
		c.want(at(idKey(d)), v, kindString)
	}
	if v, ok := obj["$anchor"]; ok && d >= draft2019 {
		c.want(at("$anchor"), v, kindString)
	}
	if v, ok := obj["$dynamicAnchor"]; ok && d == draft2020 {
		c.want(at("$dynamicAnchor"), v, kindString)
	}
	for _, k := range []string{"$defs", "definitions"} {
		if _, ok := obj[k]; ok {
			c.object(obj, k, at)
		}
	}
	for _, k := range []string{"readOnly", "writeOnly", "deprecated"} {
		if v, ok := obj[k]; ok {
			c.want(at(k), v, kindBoolean)
		}
	}
	if v, ok := obj["examples"]; ok && d >= draft06 {
		c.want(at("examples"), v, kindArray)
	}

	c.fillType(n, obj, at)
	if v, ok := obj["enum"]; ok {
		if list, ok := c.array(at("enum"), v); ok {
			n.enum, n.hasEnum = list, true
		}
	}
	if v, ok := obj["const"]; ok && d >= draft06 {
		n.constant, n.hasConst = v, true
	}
	c.fillNumbers(n, obj, at, d)
	n.minLength = c.count(obj, "minLength", at)
	n.maxLength = c.count(obj, "maxLength", at)
	if v, ok := obj["pattern"]; ok {
		if s, ok := c.str(at("pattern"), v); ok {
			n.pattern = c.regexp(at("pattern"), s)
		}
	}
	c.fillArrays(n, obj, at, d)
	c.fillObjects(n, obj, at, d)

	n.allOf = c.schemaList(obj, "allOf", at)
	n.anyOf = c.schemaList(obj, "anyOf", at)
	n.oneOf = c.schemaList(obj, "oneOf", at)
	n.not = c.subschema(obj, "not", at)
	if d >= draft07 {
		n.ifThen = c.subschema(obj, "if", at)
		n.then = c.subschema(obj, "then", at)
		n.else_ = c.subschema(obj, "else", at)
	}
	if d >= draft2019 {
		n.unevaluatedItems = c.subschema(obj, "unevaluatedItems", at)
		n.unevaluatedProps = c.subschema(obj, "unevaluatedProperties", at)
	}
}

func (c *compiler) fillType(n *node, obj map[string]any, at func(string) string) {
	v, ok := obj["type"]
	if !ok {
		return
	}
	one := func(loc string, x any) typeSet {
		s, ok := x.(string)
		i := slices.Index(typeNames, s)
		if !ok || i < 0 {
			c.problem(loc, "value must be one of %s", quoteAll(typeNames))
			return 0
		}
		return 1 << i
	}
	switch t := v.(type) {
	case []any:
		seen := typeSet(0)
		for i, x := range t {
			b := one(at("type")+"/"+strconv.Itoa(i), x)
			if seen&b != 0 {
				c.problem(at("type"), "%s is listed twice", show(x))
			}
			seen |= b
		}
		n.types = seen
		if len(t) == 0 {
			n.types = 0
			c.problem(at("type"), "want at least one type name")
		}
	default:
		n.types = one(at("type"), t)
	}
}

func (c *compiler) fillNumbers(n *node, obj map[string]any, at func(string) string, d draft) {
	num := func(k string) *bound {
		v, ok := obj[k]
		if !ok {
			return nil
		}
		dec, ok := numberOf(v)
		if !ok {
			c.problem(at(k), "want number, got %s", kindOf(v))
			return nil
		}
		return &bound{value: dec, text: show(v)}
	}
	if n.multipleOf = num("multipleOf"); n.multipleOf != nil && n.multipleOf.value.sign() <= 0 {
		c.problem(at("multipleOf"), "must be greater than 0, got %s", n.multipleOf.text)
		n.multipleOf = nil
	}
	n.minimum, n.maximum = num("minimum"), num("maximum")
	if d == draft04 {
		// exclusiveMinimum/Maximum are booleans that make minimum/maximum exclusive.
		for _, e := range []struct {
			key       string
			bound     **bound
			exclusive **bound
		}{{"exclusiveMinimum", &n.minimum, &n.exclusiveMin}, {"exclusiveMaximum", &n.maximum, &n.exclusiveMax}} {
			v, ok := obj[e.key]
			if !ok || !c.want(at(e.key), v, kindBoolean) {
				continue
			}
			if v == true && *e.bound != nil {
				*e.exclusive, *e.bound = *e.bound, nil
			}
		}
		return
	}
	n.exclusiveMin, n.exclusiveMax = num("exclusiveMinimum"), num("exclusiveMaximum")
}

func (c *compiler) fillArrays(n *node, obj map[string]any, at func(string) string, d draft) {
	if d == draft2020 {
		n.prefixItems = c.schemaList(obj, "prefixItems", at)
		if v, ok := obj["items"]; ok {
			if _, isList := v.([]any); isList {
				c.problem(at("items"), `want object or boolean (a schema), got array; in draft 2020-12 a tuple is "prefixItems"`)
			} else {
				n.items = c.subschema(obj, "items", at)
			}
		}
	} else if v, ok := obj["items"]; ok {
		if _, isList := v.([]any); isList {
			n.prefixItems = c.schemaList(obj, "items", at)
			n.items = c.subschema(obj, "additionalItems", at)
		} else {
			n.items = c.subschema(obj, "items", at)
		}
	} else if _, ok := obj["additionalItems"]; ok {
		c.subschema(obj, "additionalItems", at) // checked, but without a tuple it applies to nothing
	}
	if d >= draft06 {
		n.contains = c.subschema(obj, "contains", at)
	}
	if d >= draft2019 {
		n.minContains = c.count(obj, "minContains", at)
		n.maxContains = c.count(obj, "maxContains", at)
	}
	n.minItems = c.count(obj, "minItems", at)
	n.maxItems = c.count(obj, "maxItems", at)
	if v, ok := obj["uniqueItems"]; ok && c.want(at("uniqueItems"), v, kindBoolean) {
		n.uniqueItems = v == true
	}
}

func (c *compiler) fillObjects(n *node, obj map[string]any, at func(string) string, d draft) {
	if m, ok := c.object(obj, "properties", at); ok {
		n.properties = make(map[string]*node, len(m))
		for k := range m {
			n.properties[k] = c.compile(at("properties") + "/" + escapeToken(k))
			n.propertyOrder = append(n.propertyOrder, k)
		}
		slices.Sort(n.propertyOrder)
	}
	if m, ok := c.object(obj, "patternProperties", at); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			loc := at("patternProperties") + "/" + escapeToken(k)
			if re := c.regexp(loc, k); re != nil {
				n.patternProperties = append(n.patternProperties, patternSchema{re: re, schema: c.compile(loc)})
			}
		}
	}
	n.additional = c.subschema(obj, "additionalProperties", at)
	if d >= draft06 {
		n.propertyNames = c.subschema(obj, "propertyNames", at)
	}
	if v, ok := obj["required"]; ok {
		n.required, _ = c.names(at("required"), v)
		if d == draft04 && len(n.required) == 0 {
			if list, ok := v.([]any); ok && len(list) == 0 {
				c.problem(at("required"), "want at least one property name")
			}
		}
	}
	n.minProps = c.count(obj, "minProperties", at)
	n.maxProps = c.count(obj, "maxProperties", at)
	if d <= draft07 {
		if m, ok := c.object(obj, "dependencies", at); ok {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				loc := at("dependencies") + "/" + escapeToken(k)
				if _, isList := m[k].([]any); isList {
					names, _ := c.names(loc, m[k])
					n.dependentRequired = append(n.dependentRequired, dependency{property: k, required: names})
				} else {
					n.dependentSchemas = append(n.dependentSchemas, dependency{property: k, schema: c.compile(loc)})
				}
			}
		}
		return
	}
	if m, ok := c.object(obj, "dependentRequired", at); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			names, _ := c.names(at("dependentRequired")+"/"+escapeToken(k), m[k])
			n.dependentRequired = append(n.dependentRequired, dependency{property: k, required: names})
		}
	}
	if m, ok := c.object(obj, "dependentSchemas", at); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			n.dependentSchemas = append(n.dependentSchemas, dependency{property: k, schema: c.compile(at("dependentSchemas") + "/" + escapeToken(k))})
		}
	}
}

func (c *compiler) dynamicRef(n *node, at string, r any) {
	s, ok := c.str(at, r)
	if !ok {
		return
	}
	target, ok := c.resolveRef(at, s, n.res)
	if !ok {
		return
	}
	n.alsoApply()
	n.ref = c.compile(target)
	_, frag, _ := resolveURI(n.res.uri, s)
	if frag != "" && !strings.HasPrefix(frag, "/") {
		if obj, ok := c.valueAtMap(target); ok && obj["$dynamicAnchor"] == frag {
			n.dynamic = frag
		}
	}
}

func (c *compiler) recursiveRef(n *node, at string, r any) {
	s, ok := c.str(at, r)
	if !ok {
		return
	}
	if s != "#" {
		c.problem(at, `want "#", got %s: $recursiveRef may only point to its resource's root`, show(s))
		return
	}
	n.alsoApply()
	n.ref = c.compile(n.res.ptr)
	if obj, ok := c.valueAtMap(n.res.ptr); ok && obj["$recursiveAnchor"] == true {
		n.recursive = true
	}
}

func (c *compiler) valueAtMap(ptr string) (map[string]any, bool) {
	v, _ := c.valueAt(ptr)
	obj, ok := v.(map[string]any)
	return obj, ok
}

// checkLoops refuses a schema that reaches itself again without descending into the value
// (a $ref cycle through $ref, allOf, anyOf, oneOf, not, if/then/else or dependentSchemas):
// validating with it would never end.
func (c *compiler) checkLoops() {
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[*node]int{}
	var visit func(n *node) bool
	visit = func(n *node) bool {
		switch state[n] {
		case onPath:
			c.problem(n.ptr, "this schema refers back to itself without descending into the value, so validating with it would never end")
			return false
		case done:
			return true
		}
		state[n] = onPath
		for _, next := range n.inPlace() {
			if !visit(next) {
				return false
			}
		}
		state[n] = done
		return true
	}
	for _, ptr := range c.order {
		if !visit(c.nodes[ptr]) {
			return
		}
	}
}

// inPlace lists the subschemas that apply to the same value as n.
func (n *node) inPlace() []*node {
	var out []*node
	if n.ref != nil {
		out = append(out, n.ref)
	}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	for _, s := range []*node{n.not, n.ifThen, n.then, n.else_} {
		if s != nil {
			out = append(out, s)
		}
	}
	for _, d := range n.dependentSchemas {
		out = append(out, d.schema)
	}
	return out
}
