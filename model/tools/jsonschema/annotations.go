package jsonschema

import (
	"slices"
	"strconv"

	"github.com/phasechat/phasechat/internal/format"
)

// evaluated is what a schema's successful keywords looked at, for unevaluatedProperties and
// unevaluatedItems: property names, and items (all, the first n, or single indexes).
type evaluated struct {
	props    map[string]bool
	allItems bool
	items    int
	itemSet  map[int]bool

	// incomplete: an in-place subschema failed, so what it looked at is unknown and the
	// unevaluated keywords would misreport; the value is invalid anyway.
	incomplete bool
}

// take records the outcome of an in-place subschema: its annotations, or that it failed.
func (e *evaluated) take(probs []Problem, o *evaluated) {
	if e == nil {
		return
	}
	if len(probs) > 0 {
		e.incomplete = true
		return
	}
	e.merge(o)
}

// fail records that an in-place keyword failed.
func (e *evaluated) fail() {
	if e != nil {
		e.incomplete = true
	}
}

func (e *evaluated) merge(o *evaluated) {
	if e == nil || o == nil {
		return
	}
	for k := range o.props {
		e.addProp(k)
	}
	e.allItems = e.allItems || o.allItems
	e.items = max(e.items, o.items)
	for i := range o.itemSet {
		e.addItem(i)
	}
}

func (e *evaluated) addProp(k string) {
	if e.props == nil {
		e.props = map[string]bool{}
	}
	e.props[k] = true
}

func (e *evaluated) addItem(i int) {
	if e.itemSet == nil {
		e.itemSet = map[int]bool{}
	}
	e.itemSet[i] = true
}

func (e *evaluated) hasItem(i int) bool { return e.allItems || i < e.items || e.itemSet[i] }

func (v *validator) unevaluatedItems(n *node, items []any, ev *evaluated, probs []Problem) []Problem {
	if ev.incomplete {
		return probs
	}
	var extra []int
	for i := range items {
		if ev.hasItem(i) {
			continue
		}
		if n.unevaluatedItems.isBool && !n.unevaluatedItems.allow {
			extra = append(extra, i)
			continue
		}
		probs = v.child(n.unevaluatedItems, strconv.Itoa(i), items[i], probs)
	}
	if len(extra) > 0 {
		probs = append(probs, v.problem("unexpected %s at %s", format.Plural(len(extra), "item", "items"), joinInts(extra)))
	}
	ev.allItems = true
	return probs
}

func (v *validator) unevaluatedProps(n *node, obj map[string]any, ev *evaluated, probs []Problem) []Problem {
	if ev.incomplete {
		return probs
	}
	var extra []string
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if !ev.props[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if n.unevaluatedProps.isBool && !n.unevaluatedProps.allow {
			extra = append(extra, k)
			continue
		}
		probs = v.child(n.unevaluatedProps, k, obj[k], probs)
		ev.addProp(k)
	}
	if len(extra) > 0 {
		probs = append(probs, v.problem("unexpected %s %s", format.Plural(len(extra), "property", "properties"), quoteSorted(extra)))
	}
	return probs
}
