// Package tomlpos finds the line where a key of a TOML text is first written, for error messages
// that name file, line and key: the TOML decoder reports lines for syntax and type errors only,
// not for unknown keys or bad values. It reads only what locating needs (table headers, array
// table headers, key lines with dotted keys, keys of an inline table on one line, comments) and
// assumes the decoder has already accepted the text.
package tomlpos

import "strings"

// Index maps each key written in a text, and each of its enclosing keys, to the first line
// (from 1) that writes it.
type Index struct {
	lines map[string]int
}

// New indexes text.
func New(text string) Index {
	x := Index{lines: map[string]int{}}
	var table []string
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(stripComment(raw))
		n := i + 1
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			table = SplitKey(strings.Trim(line, "[] \t"))
			x.add(table, n)
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			full := append(append([]string{}, table...), SplitKey(k)...)
			x.add(full, n)
			if v = strings.TrimSpace(v); strings.HasPrefix(v, "{") {
				for _, part := range strings.Split(strings.Trim(v, "{} "), ",") {
					if ik, _, ok := strings.Cut(part, "="); ok {
						x.add(append(append([]string{}, full...), SplitKey(ik)...), n)
					}
				}
			}
		}
	}
	return x
}

func (x Index) add(key []string, line int) {
	for i := 1; i <= len(key); i++ {
		k := strings.Join(key[:i], "\x00")
		if _, seen := x.lines[k]; !seen {
			x.lines[k] = line
		}
	}
}

// Line is the line of key, else of its closest enclosing key written in the text, else 0.
func (x Index) Line(key []string) int {
	for n := len(key); n > 0; n-- {
		if line, ok := x.lines[strings.Join(key[:n], "\x00")]; ok {
			return line
		}
	}
	return 0
}

// SplitKey splits a dotted TOML key, honouring quoted parts; unquoted blanks are dropped.
func SplitKey(s string) []string {
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
			parts = append(parts, b.String())
			b.Reset()
		case c == ' ' || c == '\t':
		default:
			b.WriteByte(c)
		}
	}
	return append(parts, b.String())
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
