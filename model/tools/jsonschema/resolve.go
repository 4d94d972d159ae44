package jsonschema

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// draft is a JSON Schema version, oldest first.
type draft uint8

const (
	draft04 draft = iota
	draft06
	draft07
	draft2019
	draft2020
)

// draftOf is the draft a `$schema` URI names.
func draftOf(uri string) (draft, bool) {
	u := strings.TrimSuffix(uri, "#")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	switch u {
	case "json-schema.org/draft-04/schema":
		return draft04, true
	case "json-schema.org/draft-06/schema":
		return draft06, true
	case "json-schema.org/draft-07/schema":
		return draft07, true
	case "json-schema.org/draft/2019-09/schema":
		return draft2019, true
	case "json-schema.org/draft/2020-12/schema":
		return draft2020, true
	}
	return 0, false
}

// rootURI is the base URI of a document that names none: a reference to another document
// resolves against it to something no resource has, and is refused.
const rootURI = "mem:///schema.json"

// resource is a schema resource: the document, or a subschema with its own `$id`.
type resource struct {
	uri             string // absolute, without a fragment
	ptr             string // where its root is in the document
	draft           draft
	dynamicAnchors  map[string]string // `$dynamicAnchor` name → location
	dynamicNodes    map[string]*node  // the same, compiled
	root            *node             // its root, compiled
	recursiveAnchor bool              // its root says `"$recursiveAnchor": true`
}

// subschemaKeys are the keywords whose value is a schema, for each draft.
var subschemaKeys = [...][]string{
	draft04:   {"not", "additionalItems", "additionalProperties"},
	draft06:   {"not", "additionalItems", "additionalProperties", "contains", "propertyNames"},
	draft07:   {"not", "additionalItems", "additionalProperties", "contains", "propertyNames", "if", "then", "else"},
	draft2019: {"not", "additionalItems", "additionalProperties", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"},
	draft2020: {"not", "additionalProperties", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"},
}

// schemaMapKeys are the keywords whose value is an object of schemas.
var schemaMapKeys = [...][]string{
	draft04:   {"properties", "patternProperties", "definitions", "dependencies"},
	draft06:   {"properties", "patternProperties", "definitions", "dependencies"},
	draft07:   {"properties", "patternProperties", "definitions", "dependencies"},
	draft2019: {"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"},
	draft2020: {"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"},
}

// schemaListKeys are the keywords whose value is an array of schemas. "items" is a schema in
// every draft, and up to 2019-09 may be an array of them instead.
var schemaListKeys = [...][]string{
	draft04:   {"allOf", "anyOf", "oneOf", "items"},
	draft06:   {"allOf", "anyOf", "oneOf", "items"},
	draft07:   {"allOf", "anyOf", "oneOf", "items"},
	draft2019: {"allOf", "anyOf", "oneOf", "items"},
	draft2020: {"allOf", "anyOf", "oneOf", "prefixItems"},
}

// isAnchorName reports whether s is a valid $anchor: a letter or _, then letters, digits,
// -, _ or . (XML's NCName, restricted to ASCII as the metaschema's pattern is).
func isAnchorName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// register walks the schema at ptr, whose enclosing resource is res, recording every schema
// location, every resource (`$id`) and every anchor. Only schema positions are walked: an
// `$id` inside `enum` or an unknown keyword identifies nothing.
func (c *compiler) register(v any, ptr string, res *resource) {
	if _, seen := c.schemaAt[ptr]; seen {
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		c.schemaAt[ptr] = res
		c.order = append(c.order, ptr)
		return
	}
	d := res.draft
	if s, ok := obj["$schema"].(string); ok && ptr != "" {
		// An embedded resource may name its own draft, with that draft's id keyword.
		nd, known := draftOf(s)
		_, named := obj[idKey(nd)].(string)
		switch {
		case known && named:
			d = nd
		case !known && c.hasID(obj, d):
			c.problem(ptr+"/$schema", "unknown $schema %s: name draft 2020-12, 2019-09, 07, 06 or 04", show(s))
		}
	}
	res = c.identify(obj, ptr, res, d)
	d = res.draft
	c.schemaAt[ptr] = res
	c.order = append(c.order, ptr)

	_, hasRef := obj["$ref"]
	if d <= draft07 && hasRef {
		// Beside $ref every other keyword is ignored; definitions are still there to point into.
		if m, ok := obj["definitions"].(map[string]any); ok {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				c.register(m[k], ptr+"/definitions/"+escapeToken(k), res)
			}
		}
		return
	}
	for _, k := range subschemaKeys[d] {
		if sub, ok := obj[k]; ok {
			c.register(sub, ptr+"/"+k, res)
		}
	}
	if _, isList := obj["items"].([]any); !isList {
		if sub, ok := obj["items"]; ok {
			c.register(sub, ptr+"/items", res)
		}
	}
	for _, k := range schemaMapKeys[d] {
		m, ok := obj[k].(map[string]any)
		if !ok {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if _, isList := m[name].([]any); isList && k == "dependencies" {
				continue
			}
			c.register(m[name], ptr+"/"+k+"/"+escapeToken(name), res)
		}
	}
	for _, k := range schemaListKeys[d] {
		list, ok := obj[k].([]any)
		if !ok {
			continue
		}
		for i, sub := range list {
			c.register(sub, ptr+"/"+k+"/"+strconv.Itoa(i), res)
		}
	}
}

// idKey is the keyword that names a resource in draft d.
func idKey(d draft) string {
	if d == draft04 {
		return "id"
	}
	return "$id"
}

// hasID reports whether obj names a resource, in draft d's keyword or (for an embedded
// resource of a newer draft) in "$id".
func (c *compiler) hasID(obj map[string]any, d draft) bool {
	if _, ok := obj[idKey(d)].(string); ok {
		return true
	}
	_, ok := obj["$id"].(string)
	return ok
}

// identify records the resource and anchors obj declares, returning the resource its
// subschemas belong to.
// An embedded resource may name its own draft d; a subschema that is no resource may not.
func (c *compiler) identify(obj map[string]any, ptr string, res *resource, d draft) *resource {
	key := idKey(d)
	_, hasRef := obj["$ref"]
	if id, ok := obj[key].(string); ok && !(d <= draft07 && hasRef) {
		uri, frag, err := resolveURI(res.uri, id)
		switch {
		case err != nil:
			c.problem(ptr+"/"+key, "%s is not a valid URI reference: %v", show(id), err)
		case frag != "" && d >= draft2019:
			c.problem(ptr+"/"+key, "%s must not have a fragment; name an anchor with \"$anchor\"", show(id))
		default:
			if uri != res.uri || ptr == "" {
				nr := &resource{uri: uri, ptr: ptr, draft: d}
				if _, dup := c.resources[uri]; dup && ptr != "" {
					c.problem(ptr+"/"+key, "%s identifies two schemas", show(uri))
				}
				c.resources[uri] = nr
				res = nr
			}
			if frag != "" {
				c.anchors[res.uri+"#"+frag] = ptr
			}
		}
	}
	d = res.draft
	if d >= draft2019 {
		if a, ok := obj["$anchor"].(string); ok {
			c.anchor(ptr+"/$anchor", a, ptr, res)
		}
	}
	if d == draft2020 {
		if a, ok := obj["$dynamicAnchor"].(string); ok {
			if c.anchor(ptr+"/$dynamicAnchor", a, ptr, res) {
				if res.dynamicAnchors == nil {
					res.dynamicAnchors = map[string]string{}
				}
				res.dynamicAnchors[a] = ptr
			}
		}
	}
	if d == draft2019 && ptr == res.ptr {
		res.recursiveAnchor = obj["$recursiveAnchor"] == true
	}
	return res
}

func (c *compiler) anchor(at, name, ptr string, res *resource) bool {
	if !isAnchorName(name) {
		c.problem(at, "%s is not a valid anchor name (a letter or _, then letters, digits, -, _ or .)", show(name))
		return false
	}
	key := res.uri + "#" + name
	if prev, dup := c.anchors[key]; dup && prev != ptr {
		c.problem(at, "anchor %s is defined twice", show(name))
		return false
	}
	c.anchors[key] = ptr
	return true
}

// resolveURI resolves ref against base, returning the absolute URI without its fragment and
// the fragment (percent-decoded).
func resolveURI(base, ref string) (uri, fragment string, err error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", "", err
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	abs := b.ResolveReference(r)
	fragment = abs.Fragment
	abs.Fragment, abs.RawFragment = "", ""
	return abs.String(), fragment, nil
}

// resolveRef finds the location ref (written at `at`, in resource res) points to.
func (c *compiler) resolveRef(at, ref string, res *resource) (string, bool) {
	uri, frag, err := resolveURI(res.uri, ref)
	if err != nil {
		c.problem(at, "%s is not a valid URI reference: %v", show(ref), err)
		return "", false
	}
	target, ok := c.resources[uri]
	if !ok {
		c.problem(at, "external $ref %q is not allowed; keep the schema self-contained", ref)
		return "", false
	}
	if frag == "" {
		return target.ptr, true
	}
	if !strings.HasPrefix(frag, "/") {
		ptr, ok := c.anchors[uri+"#"+frag]
		if !ok {
			c.problem(at, "%s points to no anchor %s", show(ref), show(frag))
		}
		return ptr, ok
	}
	ptr := target.ptr + frag
	if _, ok := c.valueAt(ptr); !ok {
		c.problem(at, "%s points to nothing in the schema", show(ref))
		return "", false
	}
	return ptr, true
}

// valueAt is the document's value at a JSON pointer.
func (c *compiler) valueAt(ptr string) (any, bool) {
	v := c.doc
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		if strings.Contains(tok, "~") {
			if strings.Contains(strings.NewReplacer("~0", "", "~1", "").Replace(tok), "~") {
				return nil, false
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		}
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, ok := arrayIndex(tok)
			if !ok || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// arrayIndex reads a JSON pointer's array index: decimal digits, no sign, no leading zero.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 9 || len(tok) > 1 && tok[0] == '0' {
		return 0, false
	}
	i := 0
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, true
}

// resourceFor is the resource of a location reached by a pointer that registration did not
// walk (a subschema of an unknown keyword): its nearest walked ancestor's, registering it.
func (c *compiler) resourceFor(ptr string) *resource {
	if res, ok := c.schemaAt[ptr]; ok {
		return res
	}
	anc := ptr
	for {
		i := strings.LastIndexByte(anc, '/')
		if i < 0 {
			anc = ""
		} else {
			anc = anc[:i]
		}
		if res, ok := c.schemaAt[anc]; ok {
			v, _ := c.valueAt(ptr)
			c.register(v, ptr, res)
			return c.schemaAt[ptr]
		}
		if anc == "" {
			panic(fmt.Sprintf("jsonschema: the document root %q is not registered", ptr))
		}
	}
}
