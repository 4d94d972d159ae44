package config

import (
	"errors"
	"sort"
	"strings"
)

// topKeys and providerKeys are the keys a file may hold, for suggestions.
var (
	topKeys      = []string{"default", "system", "stall_timeout", "max_steps", "max_reply", "measure", "compact_at", "save", "save_oneshot", "inline", "theme", "provider", "mcp", "model"}
	providerKeys = []string{"type", "base_url", "api_key", "api_key_env", "api_key_cmd", "headers", "models",
		"default_model", "stream_options", "max_tokens", "temperature", "reasoning_effort", "extra_body"}
)

// suggestion names the known key an unknown one is probably a misspelling of, or lists the
// keys of its table.
func suggestion(k []string) string {
	var candidates []string
	switch {
	case len(k) == 1:
		candidates = topKeys
	case len(k) == 3 && k[0] == "provider":
		candidates = providerKeys
	case len(k) == 3 && k[0] == "model":
		candidates = modelInfoKeys
	default:
		return ""
	}
	last := k[len(k)-1]
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(last, c); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return "; did you mean " + best + "?"
	}
	return "; the keys here are " + strings.Join(candidates, ", ")
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// sortByLine orders problems as they appear in the file (unlocated ones first).
func sortByLine(errs []error) {
	sort.SliceStable(errs, func(i, j int) bool {
		var a, b *Error
		errors.As(errs[i], &a)
		errors.As(errs[j], &b)
		return a.Line < b.Line
	})
}
