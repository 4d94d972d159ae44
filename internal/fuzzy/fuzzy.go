// Package fuzzy ranks names (file paths, model ids) against what the user typed, one way for
// every picker: the @path completions and the model picker order the same query alike.
package fuzzy

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// score is how well a name matches a query; a higher score is a better match (see Rank).
type score int

const (
	letters   score = 100 // plus 99 less the gaps between the letters
	words     score = 200
	substring score = 300
	wordStart score = 400
	prefix    score = 500
	exact     score = 600
)

// query is what the user typed, lower case and trimmed, with what matching needs of it.
type query struct {
	text    string
	words   []string // its words, when it has more than one
	letters string   // its text without spaces
}

func newQuery(typed string) query {
	q := query{text: strings.TrimSpace(strings.ToLower(typed))}
	if ws := strings.Fields(q.text); len(ws) > 1 {
		q.words = ws
	}
	q.letters = strings.ReplaceAll(q.text, " ", "")
	return q
}

// match reports whether name (lower case) matches q (an empty q matches every name equally),
// and how well.
func match(name string, qq query) (score, bool) {
	q := qq.text
	if q == "" {
		return exact, true
	}
	trimmed := strings.TrimSuffix(name, "/") // a folder "docs/" is named "docs"
	base := trimmed[strings.LastIndexByte(trimmed, '/')+1:]
	stem, _, _ := strings.Cut(base, ".")
	if stem == q || base == q {
		return exact, true
	}
	best := score(0)
	for part := trimmed; ; {
		switch {
		case part == q:
			return exact, true
		case strings.HasPrefix(part, q):
			best = prefix
		}
		_, rest, ok := strings.Cut(part, "/")
		if !ok {
			break
		}
		part = rest
	}
	if best > 0 {
		return best, true
	}
	if at := strings.Index(name, q); at >= 0 {
		for ; at >= 0; at = nextIndex(name, q, at) {
			if at > 0 && strings.IndexByte("-_. ", name[at-1]) >= 0 {
				return wordStart, true
			}
		}
		return substring, true
	}
	if len(qq.words) > 0 {
		all := true
		for _, w := range qq.words {
			all = all && strings.Contains(name, w)
		}
		if all {
			return words, true
		}
	}
	gaps, ok := subsequence(name, qq.letters)
	if !ok {
		return 0, false
	}
	return letters + 99 - score(min(gaps, 99)), true
}

// nextIndex is where q next occurs in s after the occurrence at at, or -1.
func nextIndex(s, q string, at int) int {
	i := strings.Index(s[at+1:], q)
	if i < 0 {
		return -1
	}
	return at + 1 + i
}

// subsequence reports whether s holds the runes of sub in order, taking each at its first
// place, and how many times one was not right after the one before.
func subsequence(s, sub string) (gaps int, ok bool) {
	last := -1 // where the rune after the last one taken would be
	for j, r := range s {
		if sub == "" {
			break
		}
		if want, size := utf8.DecodeRuneInString(sub); r == want {
			if last >= 0 && j != last {
				gaps++
			}
			last, sub = j+utf8.RuneLen(r), sub[size:]
		}
	}
	return gaps, sub == ""
}

// Rank is the indexes of the names that match query, best first; case is ignored, and an
// empty query matches every name equally. The tiers, best first: the query is the whole name,
// a part of it after a "/", or a file name without its extension; the name or a part after a
// "/" starts with it; a word of the name (after "-", "_", "." or a space) starts with it; the
// name holds it; the name holds every word of a query of several words; the name holds the
// query's letters in order, fewer gaps first. Names that match equally well are ordered by tie
// (nil: none), then in the order given.
func Rank(names []string, query string, tie func(a, b string) int) []int {
	q := newQuery(query)
	type hit struct {
		i     int
		score score
	}
	var hits []hit
	for i, n := range names {
		if s, ok := match(strings.ToLower(n), q); ok {
			hits = append(hits, hit{i, s})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if a.score != b.score {
			return int(b.score - a.score)
		}
		if tie != nil {
			return tie(names[a.i], names[b.i])
		}
		return 0
	})
	out := make([]int, len(hits))
	for k, h := range hits {
		out[k] = h.i
	}
	return out
}
