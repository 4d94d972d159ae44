package tui

import (
	"strings"

	"github.com/phasechat/phasechat/internal/fuzzy"
)

// refilterFuzzy keeps the items that match, best first (fuzzy.Rank) and in item order among
// equals, and points at the best when there is a filter.
func (p *Picker) refilterFuzzy() {
	filter := string(p.filter)
	p.matches = append(p.matches[:0], fuzzy.Rank(p.items, filter, nil)...)
	if strings.TrimSpace(filter) != "" {
		p.cursor = 0
	}
	p.cursor = min(p.cursor, max(0, len(p.matches)-1))
}
