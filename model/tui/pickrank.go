package tui

import (
	"slices"
	"strings"
)

// Match tiers, best first: what rank gives an item for a filter.
const (
	rankExact     = iota // the item, or what follows its first "/", is the filter
	rankPrefix           // the item, or what follows its first "/", starts with the filter
	rankSubstring        // the item holds the filter
	rankWords            // the item holds every word of the filter
	rankLetters          // the item holds the filter's letters in order
	rankNone
)

// rank is how well item matches filter (both lower case, filter trimmed); rankNone when it
// does not.
func rank(item, filter string) int {
	_, tail, _ := strings.Cut(item, "/")
	switch {
	case filter == "":
		return rankExact
	case item == filter || tail == filter:
		return rankExact
	case strings.HasPrefix(item, filter) || strings.HasPrefix(tail, filter):
		return rankPrefix
	case strings.Contains(item, filter):
		return rankSubstring
	}
	words := strings.Fields(filter)
	all := len(words) > 1
	for _, w := range words {
		all = all && strings.Contains(item, w)
	}
	if all {
		return rankWords
	}
	if subsequence(item, strings.Join(words, "")) {
		return rankLetters
	}
	return rankNone
}

// subsequence reports whether s holds the runes of sub in order.
func subsequence(s, sub string) bool {
	r := []rune(sub)
	for _, c := range s {
		if len(r) == 0 {
			break
		}
		if c == r[0] {
			r = r[1:]
		}
	}
	return len(r) == 0
}

// refilterFuzzy keeps the items that match, best tier first and in item order within a tier,
// and points at the best when there is a filter.
func (p *Picker) refilterFuzzy() {
	filter := strings.TrimSpace(strings.ToLower(string(p.filter)))
	tiers := make([]int, len(p.items))
	p.matches = p.matches[:0]
	for i, it := range p.items {
		if tiers[i] = rank(strings.ToLower(it), filter); tiers[i] != rankNone {
			p.matches = append(p.matches, i)
		}
	}
	slices.SortStableFunc(p.matches, func(a, b int) int { return tiers[a] - tiers[b] })
	if filter != "" {
		p.cursor = 0
	}
	p.cursor = min(p.cursor, max(0, len(p.matches)-1))
}
