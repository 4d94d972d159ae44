package jsonschema

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
)

// want reports whether v has kind k, and if not says so at `at`.
func (c *compiler) want(at string, v any, k kind) bool {
	if got := kindOf(v); got != k {
		c.problem(at, "want %s, got %s", k, got)
		return false
	}
	return true
}

func (c *compiler) str(at string, v any) (string, bool) {
	if !c.want(at, v, kindString) {
		return "", false
	}
	return v.(string), true
}

func (c *compiler) array(at string, v any) ([]any, bool) {
	if !c.want(at, v, kindArray) {
		return nil, false
	}
	return v.([]any), true
}

func (c *compiler) object(obj map[string]any, k string, at func(string) string) (map[string]any, bool) {
	v, ok := obj[k]
	if !ok || !c.want(at(k), v, kindObject) {
		return nil, false
	}
	return v.(map[string]any), true
}

// count is a keyword that must be a non-negative integer; -1 when absent or wrong.
func (c *compiler) count(obj map[string]any, k string, at func(string) string) int {
	v, ok := obj[k]
	if !ok {
		return -1
	}
	d, ok := numberOf(v)
	if !ok || !d.isInteger() {
		c.problem(at(k), "want integer, got %s", kindOf(v))
		return -1
	}
	if d.neg {
		c.problem(at(k), "must be 0 or more, got %s", show(v))
		return -1
	}
	if d.exp > 18 {
		return int(^uint(0) >> 1) // as good as unbounded
	}
	i, _ := strconv.ParseInt(d.digits+strings.Repeat("0", int(d.exp)-len(d.digits)), 10, 64)
	return int(i)
}

// names is a keyword that must be an array of distinct strings.
func (c *compiler) names(at string, v any) ([]string, bool) {
	list, ok := c.array(at, v)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for i, x := range list {
		s, ok := c.str(at+"/"+strconv.Itoa(i), x)
		if !ok {
			return nil, false
		}
		if slices.Contains(out, s) {
			c.problem(at, "%s is listed twice", show(s))
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func (c *compiler) subschema(obj map[string]any, k string, at func(string) string) *node {
	if _, ok := obj[k]; !ok {
		return nil
	}
	return c.compile(at(k))
}

// schemaList is a keyword whose value is a non-empty array of schemas.
func (c *compiler) schemaList(obj map[string]any, k string, at func(string) string) []*node {
	v, ok := obj[k]
	if !ok {
		return nil
	}
	list, ok := c.array(at(k), v)
	if !ok {
		return nil
	}
	if len(list) == 0 {
		c.problem(at(k), "want at least one schema")
		return nil
	}
	out := make([]*node, len(list))
	for i := range list {
		out[i] = c.compile(at(k) + "/" + strconv.Itoa(i))
	}
	return out
}

// regexp compiles a pattern of the schema with Go's RE2 syntax.
func (c *compiler) regexp(at, pattern string) *regexp.Regexp {
	re, err := regexp.Compile(pattern)
	if err == nil {
		return re
	}
	detail := err.Error()
	var se *syntax.Error
	if e, ok := err.(*syntax.Error); ok {
		se = e
		detail = string(se.Code)
		if se.Expr != "" {
			detail += " " + show(se.Expr)
		}
	}
	c.problem(at, "pattern %s cannot be compiled: %s (patterns use Go's RE2 syntax, which has no lookaround or backreferences)", show(pattern), detail)
	return nil
}

// quoteAll lists names quoted and joined with ", ".
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
