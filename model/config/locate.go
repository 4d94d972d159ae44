package config

import (
	"errors"
	"sort"
	"strings"
)

// locator finds the line where a key is written. The TOML decoder reports lines for syntax
// and type errors only; unknown keys and bad values are located here from the text.
type locator struct {
	keys map[string]int // dotted key → first line that defines it
}

func newLocator(text string) *locator {
	l := &locator{keys: map[string]int{}}
	var table []string
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(stripComment(raw))
		n := i + 1
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			name := strings.Trim(line, "[] \t")
			table = splitKey(name)
			l.add(table, n)
		default:
			k, _, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			full := append(append([]string{}, table...), splitKey(strings.TrimSpace(k))...)
			l.add(full, n)
			// keys of an inline table on the same line: { a = 1, b = 2 }
			_, v, _ := strings.Cut(line, "=")
			if v = strings.TrimSpace(v); strings.HasPrefix(v, "{") {
				for _, part := range strings.Split(strings.Trim(v, "{} "), ",") {
					if ik, _, ok := strings.Cut(part, "="); ok {
						l.add(append(append([]string{}, full...), splitKey(strings.TrimSpace(ik))...), n)
					}
				}
			}
		}
	}
	return l
}

func (l *locator) add(key []string, line int) {
	s := strings.Join(key, "\x00")
	if _, seen := l.keys[s]; !seen {
		l.keys[s] = line
	}
}

// line is the line of key, else of its closest enclosing table that is written, else 0.
func (l *locator) line(key []string) int {
	for n := len(key); n > 0; n-- {
		if line, ok := l.keys[strings.Join(key[:n], "\x00")]; ok {
			return line
		}
	}
	return 0
}

// splitKey splits a dotted TOML key, honouring quoted parts.
func splitKey(s string) []string {
	var parts []string
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(b.String()))
}

// stripComment drops a # comment that is not inside a string.
func stripComment(line string) string {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return line[:i]
		}
	}
	return line
}

// topKeys and providerKeys are the keys a file may hold, for suggestions.
var (
	topKeys      = []string{"default", "system", "stall_timeout", "max_steps", "max_reply", "save", "provider", "mcp"}
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
