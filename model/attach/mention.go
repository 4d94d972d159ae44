package attach

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mention is an @path in a message: the bytes [Start, End) of the text, naming Path.
type Mention struct {
	Start, End int
	Path       string
}

// Mentions finds the @path mentions of text that name a file (isFile says which). A
// mention starts at the start of the text or after white space or an opening bracket;
// @"a path" may hold spaces, with \" and \\ standing for a quote and a backslash; an unquoted
// path runs to the next white space, and sentence punctuation after it (".,;:!?)]") is not
// part of it unless the path with it names a file. An @word naming no file stays text:
// "@alice" in a message is not an attachment.
func Mentions(text string, isFile func(path string) bool) []Mention {
	var out []Mention
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || !mentionMayStart(text, i) {
			continue
		}
		path, end, ok := mentionAt(text, i+1)
		if !ok {
			continue
		}
		if !isFile(path) {
			trimmed := strings.TrimRight(path, ".,;:!?)]")
			if trimmed == path || trimmed == "" || text[i+1] == '"' || !isFile(trimmed) {
				continue
			}
			end -= len(path) - len(trimmed)
			path = trimmed
		}
		out = append(out, Mention{Start: i, End: end, Path: path})
		i = end - 1
	}
	return out
}

// mentionMayStart reports whether the @ at i begins a mention rather than sitting inside a
// word (an e-mail address, "a@b").
func mentionMayStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r) || r == '(' || r == '['
}

// mentionAt reads the path that starts at i (just after the @), quoted or bare, and where
// the mention ends.
func mentionAt(text string, i int) (path string, end int, ok bool) {
	if i >= len(text) {
		return "", 0, false
	}
	if text[i] != '"' {
		end = i
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if unicode.IsSpace(r) {
				break
			}
			end += size
		}
		return text[i:end], end, end > i
	}
	var b strings.Builder
	for j := i + 1; j < len(text); j++ {
		switch c := text[j]; {
		case c == '\\' && j+1 < len(text) && (text[j+1] == '"' || text[j+1] == '\\'):
			b.WriteByte(text[j+1])
			j++
		case c == '"':
			return b.String(), j + 1, b.Len() > 0
		case c == '\n':
			return "", 0, false
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// MayMention reports whether text holds an @ where a mention could start: only then need a
// front end look for the files it names before sending it.
func MayMention(text string) bool {
	return strings.Contains(text, "@") && len(Mentions(text, func(string) bool { return true })) > 0
}

// SplitPaths splits /attach's argument into paths: at spaces, a double-quoted path whole.
func SplitPaths(arg string) []string {
	var out []string
	for rest := strings.TrimSpace(arg); rest != ""; rest = strings.TrimSpace(rest) {
		if rest[0] == '"' {
			if end := strings.IndexByte(rest[1:], '"'); end >= 0 {
				out = append(out, rest[1:end+1])
				rest = rest[end+2:]
				continue
			}
		}
		word, after, _ := strings.Cut(rest, " ")
		out, rest = append(out, word), after
	}
	return out
}

// Quote is path as a mention: bare when it can be, else quoted with \" and \\ escaped.
func Quote(path string) string {
	if path != "" && !strings.ContainsFunc(path, func(r rune) bool { return unicode.IsSpace(r) || r == '"' }) {
		return "@" + path
	}
	return `@"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(path) + `"`
}

// OpenMention is the @mention being typed at the end of text: where its @ stands and what
// follows it so far (a quoted one without its opening quote). ok is false when text does not
// end in one.
func OpenMention(text string) (at int, query string, ok bool) {
	i := strings.LastIndexByte(text, '@')
	if i < 0 || !mentionMayStart(text, i) {
		return 0, "", false
	}
	q := text[i+1:]
	if strings.HasPrefix(q, `"`) {
		q = q[1:]
		if strings.ContainsAny(q, "\"\n") {
			return 0, "", false
		}
		return i, q, true
	}
	if strings.ContainsFunc(q, unicode.IsSpace) {
		return 0, "", false
	}
	return i, q, true
}
