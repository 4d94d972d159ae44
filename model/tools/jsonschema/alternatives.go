package jsonschema

import (
	"fmt"
	"slices"
	"strings"
)

// allowedProblem says which values are allowed here (an enum or a const).
func (v *validator) allowedProblem(values []any) Problem {
	if v.quiet {
		return quietProblem
	}
	return allowedProblem(v.location(), values)
}

// allowedProblem says which values are allowed at loc (an enum or a const).
func allowedProblem(loc string, values []any) Problem {
	p := Problem{Location: loc, allowed: values}
	if len(values) == 1 {
		p.Message = "value must be " + show(values[0])
		return p
	}
	const listed = 8
	shown := make([]string, 0, listed)
	for i, x := range values {
		if i == listed {
			shown = append(shown, fmt.Sprintf("… (%d more)", len(values)-listed))
			break
		}
		shown = append(shown, show(x))
	}
	p.Message = "value must be one of " + strings.Join(shown, ", ")
	return p
}

// combinators applies allOf, anyOf, oneOf, not and if/then/else. Alternatives are first tried
// quietly; their problems are worded only when none of them matches.
func (v *validator) combinators(n *node, inst any, ev *evaluated, probs []Problem) []Problem {
	collect := ev != nil
	for _, s := range n.allOf {
		p, e := v.eval(s, inst, collect)
		probs = append(probs, p...)
		ev.take(p, e)
	}
	if len(n.anyOf) > 0 {
		ok := false
		for _, s := range n.anyOf {
			p, e := v.quietly(s, inst, collect)
			if len(p) == 0 {
				ok = true
				ev.merge(e)
				if !collect {
					break
				}
			}
		}
		if !ok {
			probs = append(probs, v.alternativesFailed(n.anyOf, inst)...)
			ev.fail()
		}
	}
	if len(n.oneOf) > 0 {
		var matched []int
		var matchedEv *evaluated
		for i, s := range n.oneOf {
			if p, e := v.quietly(s, inst, collect); len(p) == 0 {
				matched = append(matched, i)
				matchedEv = e
			}
		}
		switch len(matched) {
		case 0:
			probs = append(probs, v.alternativesFailed(n.oneOf, inst)...)
			ev.fail()
		case 1:
			ev.merge(matchedEv)
		default:
			probs = append(probs, v.problem("oneOf: matches alternatives %d and %d, want exactly one", matched[0], matched[1]))
			ev.fail()
		}
	}
	if n.not != nil {
		if p, _ := v.quietly(n.not, inst, false); len(p) == 0 {
			probs = append(probs, v.problem(`must not match the "not" schema`))
		}
	}
	if n.ifThen != nil {
		p, e := v.quietly(n.ifThen, inst, collect)
		if len(p) == 0 {
			ev.merge(e)
			if n.then != nil {
				p, e := v.eval(n.then, inst, collect)
				probs = append(probs, p...)
				ev.take(p, e)
			}
		} else if n.else_ != nil {
			p, e := v.eval(n.else_, inst, collect)
			probs = append(probs, p...)
			ev.take(p, e)
		}
	}
	return probs
}

// quietly applies s only to learn whether it matches: its problems are not worded.
func (v *validator) quietly(s *node, inst any, collect bool) ([]Problem, *evaluated) {
	was := v.quiet
	v.quiet = true
	p, e := v.eval(s, inst, collect)
	v.quiet = was
	return p, e
}

// alternativesFailed words why none of the alternatives matched (see bestAlternative).
func (v *validator) alternativesFailed(alternatives []*node, inst any) []Problem {
	if v.quiet {
		return []Problem{quietProblem}
	}
	failed := make([][]Problem, len(alternatives))
	for i, s := range alternatives {
		failed[i], _ = v.eval(s, inst, false)
	}
	return v.bestAlternative(failed)
}

// bestAlternative words the failure of every alternative of anyOf or oneOf briefly: when all
// of them want another type here, one problem naming every type; when those of the right type
// each allow only certain values at one place (a tagged union's tag), one problem naming
// them all; otherwise the problems of the alternative of the right type that came nearest to
// matching.
func (v *validator) bestAlternative(failed [][]Problem) []Problem {
	here := v.location()
	var wants []string
	got := ""
	var candidates [][]Problem
	for _, p := range failed {
		i := slices.IndexFunc(p, func(q Problem) bool { return q.wantTypes != nil && q.Location == here })
		if i < 0 {
			candidates = append(candidates, p)
			continue
		}
		got = p[i].gotType
		for _, w := range p[i].wantTypes {
			if !slices.Contains(wants, w) {
				wants = append(wants, w)
			}
		}
	}
	if len(candidates) == 0 {
		return []Problem{{Location: here, Message: "want " + strings.Join(wants, " or ") + ", got " + got,
			wantTypes: wants, gotType: got}}
	}
	if tag, ok := commonTag(candidates); ok {
		return []Problem{tag}
	}
	best := candidates[0]
	for _, p := range candidates[1:] {
		if len(p) < len(best) {
			best = p
		}
	}
	return best
}

// commonTag is, when at least two alternatives each fail an enum or const at the same place,
// one problem allowing every value any of them allows there.
func commonTag(alternatives [][]Problem) (Problem, bool) {
	if len(alternatives) < 2 {
		return Problem{}, false
	}
	loc := ""
	var values []any
	for i, p := range alternatives {
		j := slices.IndexFunc(p, func(q Problem) bool { return q.allowed != nil })
		if j < 0 || i > 0 && p[j].Location != loc {
			return Problem{}, false
		}
		loc = p[j].Location
		for _, x := range p[j].allowed {
			if !slices.ContainsFunc(values, func(y any) bool { return equal(x, y) }) {
				values = append(values, x)
			}
		}
	}
	return allowedProblem(loc, values), true
}
