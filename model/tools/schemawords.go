package tools

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/phasechat/phasechat/internal/format"
)

// argProblem is one thing wrong, at a place: at is a JSON pointer ("" for the whole value or
// document, "/a/0" for the first item of property a).
type argProblem struct {
	at, msg string
}

// String is the problem in words: `at "/a": want string, got number`, or the words alone at
// the top level.
func (p argProblem) String() string {
	if p.at == "" {
		return p.msg
	}
	return "at " + strconv.Quote(cutBytes(p.at, maxShownLocation)) + ": " + p.msg
}

// maxShownLocation is how much of a location a problem shows: a hostile value's keys can be
// long.
const maxShownLocation = 160

// maxListedProblems is how many problems an error's text lists by name.
const maxListedProblems = 10

// joinProblems lists the problems joined with "; ", at most maxListedProblems of them.
func joinProblems(probs []argProblem) string {
	var b strings.Builder
	for i, p := range probs {
		if i == maxListedProblems {
			b.WriteString("; and " + strconv.Itoa(len(probs)-maxListedProblems) + " more")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// argsProblems is arguments that do not match their schema.
type argsProblems []argProblem

func (e argsProblems) Error() string { return joinProblems(e) }

// libraryProblem words a rejection the library made that words does not cover (unevaluated
// properties, for one): its innermost words, where in the schema they arose.
func libraryProblem(err error) argProblem {
	msg, where := err.Error(), ""
	for strings.HasPrefix(msg, "validating ") {
		loc, rest, ok := strings.Cut(strings.TrimPrefix(msg, "validating "), ": ")
		if !ok {
			break
		}
		where, msg = loc, rest
	}
	if strings.TrimSpace(msg) == "" {
		msg = err.Error()
	}
	if where != "" && where != "root" {
		msg += " (the schema's " + where + ")"
	}
	return argProblem{msg: format.OneLine(msg, maxLibraryWords)}
}

// words finds and words the problems of a value the library rejected, following what the
// library checks keyword by keyword. Where it finds nothing (it counts as evaluated, for
// unevaluatedProperties and unevaluatedItems, whatever a subschema declares, matched or not)
// the library's own words are shown. It spends at most left evaluations.
type words struct {
	schema   *argSchema
	left     int
	patterns map[string]*regexp.Regexp
}

// regexp is pattern compiled, once per words; nil when it does not compile.
func (w *words) regexp(pattern string) *regexp.Regexp {
	re, ok := w.patterns[pattern]
	if !ok {
		re, _ = regexp.Compile(pattern)
		if w.patterns == nil {
			w.patterns = map[string]*regexp.Regexp{}
		}
		w.patterns[pattern] = re
	}
	return re
}

func (w *words) check(s *jsonschema.Schema, v any, at string) []argProblem {
	if w.left--; w.left < 0 {
		return nil
	}
	if isFalse(s) {
		return []argProblem{{at, "no value is allowed here"}}
	}
	var probs []argProblem
	if t := w.schema.refs[s]; t != nil {
		probs = append(probs, w.check(t, v, at)...)
		if w.schema.draft07 && s.Ref != "" {
			return probs
		}
	}
	if p, ok := typeProblem(s, v, at); !ok {
		return append(probs, p)
	}
	if s.Enum != nil && !slices.ContainsFunc(s.Enum, func(e any) bool { return jsonschema.Equal(e, v) }) {
		probs = append(probs, argProblem{at, "value must be one of " + showAll(s.Enum)})
	}
	if s.Const != nil && !jsonschema.Equal(*s.Const, v) {
		probs = append(probs, argProblem{at, "value must be " + show(*s.Const)})
	}
	switch x := v.(type) {
	case int64, float64:
		probs = append(probs, numberProblems(s, x, at)...)
	case string:
		probs = append(probs, w.stringProblems(s, x, at)...)
	case []any:
		probs = append(probs, w.array(s, x, at)...)
	case map[string]any:
		probs = append(probs, w.object(s, x, at)...)
	}
	probs = append(probs, w.combinators(s, v, at)...)
	return append(probs, w.unevaluated(s, v, at)...)
}

// unevaluated checks unevaluatedProperties and unevaluatedItems, counting as evaluated what
// s or any subschema applying to the same value declares (properties, patterns, items).
func (w *words) unevaluated(s *jsonschema.Schema, v any, at string) []argProblem {
	var probs []argProblem
	switch x := v.(type) {
	case map[string]any:
		if s.UnevaluatedProperties == nil {
			return nil
		}
		var unexpected []any
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if w.declaresProperty(s, k) {
				continue
			}
			if isFalse(s.UnevaluatedProperties) {
				unexpected = append(unexpected, k)
			} else {
				probs = append(probs, w.check(s.UnevaluatedProperties, x[k], at+"/"+escapeToken(k))...)
			}
		}
		if len(unexpected) > 0 {
			probs = append(probs, argProblem{at, "unexpected " + format.Plural(len(unexpected), "property ", "properties ") + showAll(unexpected)})
		}
	case []any:
		if s.UnevaluatedItems == nil {
			return nil
		}
		var unexpected []string
		for i := w.declaredItems(s); i < len(x); i++ {
			if isFalse(s.UnevaluatedItems) {
				unexpected = append(unexpected, strconv.Itoa(i))
			} else {
				probs = append(probs, w.check(s.UnevaluatedItems, x[i], at+"/"+strconv.Itoa(i))...)
			}
		}
		if len(unexpected) > 0 {
			probs = append(probs, argProblem{at, "unexpected items at " + strings.Join(unexpected, ", ")})
		}
	}
	return probs
}

// declaresProperty reports whether s, or a subschema applying to the same value, evaluates
// property k.
func (w *words) declaresProperty(s *jsonschema.Schema, k string) bool {
	if w.left--; w.left < 0 {
		return true
	}
	if _, ok := s.Properties[k]; ok || s.AdditionalProperties != nil {
		return true
	}
	for p := range s.PatternProperties {
		if re := w.regexp(p); re != nil && re.MatchString(k) {
			return true
		}
	}
	found := false
	w.schema.eachInPlace(s, func(c *jsonschema.Schema) { found = found || w.declaresProperty(c, k) })
	return found
}

// declaredItems is how many leading items s, or a subschema applying to the same value,
// evaluates.
func (w *words) declaredItems(s *jsonschema.Schema) int {
	if w.left--; w.left < 0 || s.Items != nil || s.AdditionalItems != nil && s.ItemsArray != nil {
		return math.MaxInt
	}
	n := max(len(s.PrefixItems), len(s.ItemsArray))
	w.schema.eachInPlace(s, func(c *jsonschema.Schema) { n = max(n, w.declaredItems(c)) })
	return n
}

// matches reports whether words finds nothing wrong with v against s.
func (w *words) matches(s *jsonschema.Schema, v any) bool { return len(w.check(s, v, "")) == 0 }

// isFalse reports whether s is the schema `false` (the library reads it as {"not": {}}).
func isFalse(s *jsonschema.Schema) bool {
	if s.Not == nil || !isEmpty(s.Not) {
		return false
	}
	rest := *s
	rest.Not = nil
	return isEmpty(&rest)
}

// isEmpty reports whether s is the schema `true` (or {}), which every value matches.
func isEmpty(s *jsonschema.Schema) bool { return reflect.ValueOf(s).Elem().IsZero() }

// typeProblem checks "type"; ok is false when v is of another type.
func typeProblem(s *jsonschema.Schema, v any, at string) (argProblem, bool) {
	want := s.Types
	if s.Type != "" {
		want = []string{s.Type}
	}
	if len(want) == 0 {
		return argProblem{}, true
	}
	got := jsonKind(v)
	if slices.Contains(want, got) || got == "number" && isInteger(v) && slices.Contains(want, "integer") {
		return argProblem{}, true
	}
	return argProblem{at, "want " + strings.Join(want, " or ") + ", got " + got}, false
}

func isInteger(v any) bool {
	switch x := v.(type) {
	case int64:
		return true
	case float64:
		_, frac := math.Modf(x)
		return frac == 0
	}
	return false
}

func numberProblems(s *jsonschema.Schema, v any, at string) []argProblem {
	n := new(big.Rat)
	if i, ok := v.(int64); ok {
		n.SetInt64(i)
	} else {
		n.SetFloat64(v.(float64))
	}
	cmp := func(f float64) int { return n.Cmp(new(big.Rat).SetFloat64(f)) }
	got := show(v)
	var probs []argProblem
	if m := s.Minimum; m != nil && cmp(*m) < 0 {
		probs = append(probs, argProblem{at, "minimum: got " + got + ", want " + showFloat(*m)})
	}
	if m := s.Maximum; m != nil && cmp(*m) > 0 {
		probs = append(probs, argProblem{at, "maximum: got " + got + ", want " + showFloat(*m)})
	}
	if m := s.ExclusiveMinimum; m != nil && cmp(*m) <= 0 {
		probs = append(probs, argProblem{at, "exclusiveMinimum: got " + got + ", want more than " + showFloat(*m)})
	}
	if m := s.ExclusiveMaximum; m != nil && cmp(*m) >= 0 {
		probs = append(probs, argProblem{at, "exclusiveMaximum: got " + got + ", want less than " + showFloat(*m)})
	}
	if m := s.MultipleOf; m != nil && *m > 0 {
		if q := new(big.Rat).Quo(n, new(big.Rat).SetFloat64(*m)); !q.IsInt() {
			probs = append(probs, argProblem{at, "multipleOf: got " + got + ", want a multiple of " + showFloat(*m)})
		}
	}
	return probs
}

func (w *words) stringProblems(s *jsonschema.Schema, v, at string) []argProblem {
	var probs []argProblem
	n := utf8.RuneCountInString(v)
	if m := s.MinLength; m != nil && n < *m {
		probs = append(probs, argProblem{at, fmt.Sprintf("minLength: got %d, want %d", n, *m)})
	}
	if m := s.MaxLength; m != nil && n > *m {
		probs = append(probs, argProblem{at, fmt.Sprintf("maxLength: got %d, want %d", n, *m)})
	}
	if s.Pattern != "" {
		if re := w.regexp(s.Pattern); re != nil && !re.MatchString(v) {
			probs = append(probs, argProblem{at, show(v) + " does not match pattern " + show(s.Pattern)})
		}
	}
	return probs
}

func (w *words) array(s *jsonschema.Schema, v []any, at string) []argProblem {
	var probs []argProblem
	if m := s.MinItems; m != nil && len(v) < *m {
		probs = append(probs, argProblem{at, fmt.Sprintf("minItems: got %d, want %d", len(v), *m)})
	}
	if m := s.MaxItems; m != nil && len(v) > *m {
		probs = append(probs, argProblem{at, fmt.Sprintf("maxItems: got %d, want %d", len(v), *m)})
	}
	if s.UniqueItems {
	unique:
		for i := range v {
			for j := range i {
				if w.left--; w.left < 0 {
					break unique
				}
				if jsonschema.Equal(v[i], v[j]) {
					probs = append(probs, argProblem{at, fmt.Sprintf("uniqueItems: items %d and %d are equal", j, i)})
					break unique
				}
			}
		}
	}
	tuple := s.PrefixItems
	rest := s.Items
	if s.ItemsArray != nil {
		tuple, rest = s.ItemsArray, s.AdditionalItems
	}
	var perItem []argProblem
	for i, x := range v {
		item := rest
		if i < len(tuple) {
			item = tuple[i]
		}
		if item == nil {
			continue
		}
		if isFalse(item) {
			probs = append(probs, argProblem{at, fmt.Sprintf("at most %d items allowed, got %d", len(tuple), len(v))})
			break
		}
		perItem = append(perItem, w.check(item, x, at+"/"+strconv.Itoa(i))...)
	}
	probs = append(probs, perItem...)
	if s.Contains != nil {
		n := 0
		for _, x := range v {
			if w.matches(s.Contains, x) {
				n++
			}
		}
		min := 1
		if s.MinContains != nil {
			min = *s.MinContains
		}
		switch {
		case n == 0 && min > 0:
			probs = append(probs, argProblem{at, `contains: no item matches the "contains" schema`})
		case n < min:
			probs = append(probs, argProblem{at, fmt.Sprintf(`minContains: %d %s the "contains" schema, want at least %d`, n, format.Plural(n, "item matches", "items match"), min)})
		case s.MaxContains != nil && n > *s.MaxContains:
			probs = append(probs, argProblem{at, fmt.Sprintf(`maxContains: %d %s the "contains" schema, want at most %d`, n, format.Plural(n, "item matches", "items match"), *s.MaxContains)})
		}
	}
	return probs
}

func (w *words) object(s *jsonschema.Schema, v map[string]any, at string) []argProblem {
	var probs []argProblem
	if missing := missingOf(v, s.Required); len(missing) > 0 {
		probs = append(probs, argProblem{at, "missing " + format.Plural(len(missing), "property ", "properties ") + showAll(toAny(missing))})
	}
	var patterns []*regexp.Regexp
	var patternSchemas []*jsonschema.Schema
	for _, p := range slices.Sorted(maps.Keys(s.PatternProperties)) {
		if re := w.regexp(p); re != nil {
			patterns, patternSchemas = append(patterns, re), append(patternSchemas, s.PatternProperties[p])
		}
	}
	var unexpected []any
	for _, k := range slices.Sorted(maps.Keys(v)) {
		kat := at + "/" + escapeToken(k)
		known := false
		if c := s.Properties[k]; c != nil {
			known = true
			probs = append(probs, w.check(c, v[k], kat)...)
		}
		for i, re := range patterns {
			if re.MatchString(k) {
				known = true
				probs = append(probs, w.check(patternSchemas[i], v[k], kat)...)
			}
		}
		if known || s.AdditionalProperties == nil {
			continue
		}
		if isFalse(s.AdditionalProperties) {
			unexpected = append(unexpected, k)
		} else {
			probs = append(probs, w.check(s.AdditionalProperties, v[k], kat)...)
		}
	}
	if len(unexpected) > 0 {
		probs = append(probs, argProblem{at, "unexpected " + format.Plural(len(unexpected), "property ", "properties ") + showAll(unexpected)})
	}
	if s.PropertyNames != nil {
		for _, k := range slices.Sorted(maps.Keys(v)) {
			for _, p := range w.check(s.PropertyNames, k, "") {
				probs = append(probs, argProblem{at, "property name " + show(k) + ": " + p.msg})
			}
		}
	}
	if m := s.MinProperties; m != nil && len(v) < *m {
		probs = append(probs, argProblem{at, fmt.Sprintf("minProperties: got %d, want %d", len(v), *m)})
	}
	if m := s.MaxProperties; m != nil && len(v) > *m {
		probs = append(probs, argProblem{at, fmt.Sprintf("maxProperties: got %d, want %d", len(v), *m)})
	}
	dependent := s.DependentRequired
	if w.schema.draft07 {
		dependent = s.DependencyStrings
	}
	for _, k := range slices.Sorted(maps.Keys(dependent)) {
		if _, present := v[k]; !present {
			continue
		}
		if missing := missingOf(v, dependent[k]); len(missing) > 0 {
			probs = append(probs, argProblem{at, "missing " + format.Plural(len(missing), "property ", "properties ") +
				showAll(toAny(missing)) + ", required when " + show(k) + " is present"})
		}
	}
	return probs
}

func missingOf(v map[string]any, names []string) []string {
	var missing []string
	for _, n := range names {
		if _, ok := v[n]; !ok {
			missing = append(missing, n)
		}
	}
	return missing
}

// combinators checks allOf, anyOf, oneOf, not, if/then/else and the dependent schemas. A
// failed anyOf or oneOf is worded by its nearest alternative: one whose type fits, with the
// fewest problems; when no alternative's type fits, by the types they want.
func (w *words) combinators(s *jsonschema.Schema, v any, at string) []argProblem {
	var probs []argProblem
	for _, c := range s.AllOf {
		probs = append(probs, w.check(c, v, at)...)
	}
	if len(s.AnyOf) > 0 {
		probs = append(probs, w.alternatives(s.AnyOf, v, at)...)
	}
	if len(s.OneOf) > 0 {
		var matched []string
		for i, c := range s.OneOf {
			if w.matches(c, v) {
				matched = append(matched, strconv.Itoa(i))
			}
		}
		switch len(matched) {
		case 0:
			probs = append(probs, w.alternatives(s.OneOf, v, at)...)
		case 1:
		default:
			probs = append(probs, argProblem{at, "oneOf: matches alternatives " + strings.Join(matched, " and ") + ", want exactly one"})
		}
	}
	if s.Not != nil && !isEmpty(s.Not) && w.matches(s.Not, v) {
		probs = append(probs, argProblem{at, `must not match the "not" schema`})
	}
	if s.If != nil {
		branch := s.Else
		if w.matches(s.If, v) {
			branch = s.Then
		}
		if branch != nil {
			probs = append(probs, w.check(branch, v, at)...)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		dependent := s.DependentSchemas
		if w.schema.draft07 {
			dependent = s.DependencySchemas
		}
		for _, k := range slices.Sorted(maps.Keys(dependent)) {
			if _, present := obj[k]; present {
				probs = append(probs, w.check(dependent[k], v, at)...)
			}
		}
	}
	return probs
}

func (w *words) alternatives(alts []*jsonschema.Schema, v any, at string) []argProblem {
	var best []argProblem
	var types []string
	for _, c := range alts {
		p := w.check(c, v, at)
		if len(p) == 0 {
			return nil
		}
		if len(p) == 1 && p[0].at == at && strings.HasPrefix(p[0].msg, "want ") {
			want, _, _ := strings.Cut(strings.TrimPrefix(p[0].msg, "want "), ", got ")
			for _, t := range strings.Split(want, " or ") {
				if !slices.Contains(types, t) {
					types = append(types, t)
				}
			}
			continue
		}
		if best == nil || len(p) < len(best) {
			best = p
		}
	}
	if best != nil {
		return best
	}
	return []argProblem{{at, "want " + strings.Join(types, " or ") + ", got " + jsonKind(v)}}
}

// jsonKind names v's JSON type, numbers all as "number".
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}

func toAny(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// showLimit is how many bytes of a value a message quotes.
const showLimit = 60

// show is v as JSON, cut short (a cut ends in "…").
func show(v any) string {
	var b strings.Builder
	writeShort(&b, v)
	return cutBytes(b.String(), showLimit)
}

// showAll is the values shown and joined with ", ", at most ten of them.
func showAll(vs []any) string {
	shown := make([]string, 0, min(len(vs), 10))
	for i, v := range vs {
		if i == 10 {
			shown = append(shown, "…")
			break
		}
		shown = append(shown, show(v))
	}
	return strings.Join(shown, ", ")
}

func quote(s string) string { return show(s) }

func quoteAll(names []string) string { return showAll(toAny(names)) }

func showFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// writeShort writes v as JSON, stopping once the text is past showLimit.
func writeShort(b *strings.Builder, v any) {
	if b.Len() > showLimit {
		return
	}
	switch x := v.(type) {
	case string:
		if len(x) > showLimit {
			x = x[:showLimit] // cutBytes cuts the quoted text at a rune boundary
		}
		b.WriteString(strconv.Quote(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if b.Len() > showLimit {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeShort(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if b.Len() > showLimit {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeShort(b, k)
			b.WriteByte(':')
			writeShort(b, x[k])
		}
		b.WriteByte('}')
	case float64:
		b.WriteString(showFloat(x))
	case nil:
		b.WriteString("null")
	default:
		fmt.Fprint(b, x)
	}
}

// cutBytes shortens s to at most n bytes, at a character boundary, marking the cut with "…".
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
