package mcp

import (
	"strings"
)

// lineIndex knows the line where each key of a TOML text is first written: a table header
// ([a.b]), a key line (k = v, dotted keys included) or a key inside an inline table on one
// line. It reads only what locating needs; the TOML decoder has checked the text already.
type lineIndex map[string]int

func indexLines(text []byte) lineIndex {
	idx := lineIndex{}
	var table []string
	for n, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			header := strings.Trim(strings.SplitN(line, "]", 2)[0], "[ ")
			if strings.HasPrefix(line, "[[") {
				header = strings.Trim(strings.SplitN(line, "]]", 2)[0], "[ ")
			}
			table = splitKey(header)
			idx.add(table, n+1)
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq <= 0 {
			continue
		}
		key := append(append([]string(nil), table...), splitKey(line[:eq])...)
		idx.add(key, n+1)
		if rest := strings.TrimSpace(line[eq+1:]); strings.HasPrefix(rest, "{") {
			for _, part := range strings.Split(strings.Trim(rest, "{} "), ",") {
				if e := strings.IndexByte(part, '='); e > 0 {
					idx.add(append(append([]string(nil), key...), splitKey(part[:e])...), n+1)
				}
			}
		}
	}
	return idx
}

func (idx lineIndex) add(key []string, line int) {
	for i := 1; i <= len(key); i++ {
		k := strings.Join(key[:i], "\x00")
		if _, ok := idx[k]; !ok {
			idx[k] = line
		}
	}
}

// find returns the line of key, or of its nearest enclosing key written in the text; 0 when
// none is.
func (idx lineIndex) find(key []string) int {
	for i := len(key); i > 0; i-- {
		if l, ok := idx[strings.Join(key[:i], "\x00")]; ok {
			return l
		}
	}
	return 0
}

// splitKey splits a dotted TOML key, honouring quotes.
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
		case c == ' ' || c == '\t':
		default:
			b.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(b.String()))
}
