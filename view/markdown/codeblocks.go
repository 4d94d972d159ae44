package markdown

import "strings"

// CodeBlocks returns the contents of the fenced code blocks of markdown text, in order: a
// fence is three or more backticks or tildes, indented at most three spaces, and the block
// ends at a fence of the same character at least as long (or at the end of the text).
func CodeBlocks(text string) []string {
	var blocks []string
	var cur []string
	fenceChar, fenceLen, open := byte(0), 0, false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if indent <= 3 && len(trimmed) >= 3 && (trimmed[0] == '`' || trimmed[0] == '~') {
			c := trimmed[0]
			n := len(trimmed) - len(strings.TrimLeft(trimmed, string(c)))
			rest := strings.TrimSpace(trimmed[n:])
			switch {
			case !open && n >= 3 && !(c == '`' && strings.Contains(rest, "`")):
				fenceChar, fenceLen, open, cur = c, n, true, nil
				continue
			case open && c == fenceChar && n >= fenceLen && rest == "":
				blocks = append(blocks, strings.Join(cur, "\n"))
				open = false
				continue
			}
		}
		if open {
			cur = append(cur, line)
		}
	}
	if open {
		blocks = append(blocks, strings.Join(cur, "\n"))
	}
	return blocks
}
