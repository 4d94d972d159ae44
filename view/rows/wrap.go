package rows

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TabWidth is how many spaces a tab becomes before text is measured: a tab has no fixed width
// on a terminal, so none reaches the screen.
const TabWidth = 4

// TabSpaces is what a tab is drawn as, everywhere (markdown, code, tool output).
var TabSpaces = strings.Repeat(" ", TabWidth)

var tabs = strings.NewReplacer("\t", TabSpaces)

func ExpandTabs(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	return tabs.Replace(s)
}

// WrapInto word-wraps sanitised, unstyled text to width cells (breaking words longer than a
// line) and adds each line, prefixed by first on the first line and by rest on the others;
// style is applied to the text of each line. Widths are measured in cells, so wide and
// combining characters keep the layout. An empty text adds one line holding just first.
func WrapInto(b *Builder, text string, width int, first, rest string, style func(string) string) {
	indent := max(ansi.StringWidth(first), ansi.StringWidth(rest))
	if indent >= width { // no room to indent: the text gets every cell
		first, rest, indent = "", "", 0
	}
	avail := max(1, width-indent)
	prefix := first
	for src := range strings.SplitSeq(ExpandTabs(text), "\n") {
		parts := []string{src}
		if ansi.StringWidth(src) > avail {
			parts = WrapLines(src, avail)
		}
		for _, line := range parts {
			line = strings.TrimRight(line, " ")
			if style != nil && line != "" {
				line = style(line)
			}
			b.Add(strings.TrimRight(prefix+line, " "))
			prefix = rest
		}
	}
}

// WrapText is WrapInto for a one-off run.
func WrapText(text string, width int, first, rest string, style func(string) string) Lines {
	var b Builder
	WrapInto(&b, text, width, first, rest, style)
	return b.Compact()
}

// ClampWidth cuts the lines wider than width (closing any SGR left open), for layouts whose
// fixed indentation cannot fit a very narrow screen.
func ClampWidth(l Lines, width int) Lines {
	var b Builder
	for i := range l.Len() {
		line := l.At(i)
		if ansi.StringWidth(line) > width {
			line = TrimStyledEnd(ansi.Truncate(line, max(0, width), ""))
		}
		b.Add(line)
	}
	return b.Compact()
}

// Fit returns s cut to at most width cells, ending in "…" when cut.
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// WrapStyled wraps text that may hold SGR sequences: the first line to width cells, the
// others to width minus rest's width, indented by rest. Each line closes an SGR left open at
// its end and the next line reopens it, so no line's style depends on another being drawn.
func WrapStyled(s string, width int, rest string) []string {
	s = ExpandTabs(s)
	first, more, _ := strings.Cut(strings.Join(WrapLines(s, max(1, width)), "\n"), "\n")
	out := []string{first}
	if more != "" {
		if ansi.StringWidth(rest) >= width {
			rest = ""
		}
		// The rest of s after the first line's cells; TruncateLeft keeps the escapes it skips.
		rem := trimLeadingSpaces(ansi.TruncateLeft(s, ansi.StringWidth(first), ""))
		avail := max(1, width-ansi.StringWidth(rest))
		for _, line := range WrapLines(rem, avail) {
			out = append(out, rest+line)
		}
	}
	return balanceSGR(rejoinMarks(out))
}

// WrapLines word-wraps s (which may hold SGR) to width cells with x/ansi, then hard-wraps any
// line the word wrap left too wide (it can, at tiny widths) and rejoins split marks.
func WrapLines(s string, width int) []string {
	var out []string
	for line := range strings.SplitSeq(ansi.Wrap(s, width, ""), "\n") {
		if ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		out = append(out, strings.Split(ansi.Hardwrap(line, width, false), "\n")...)
	}
	return rejoinMarks(out)
}

// rejoinMarks moves the combining marks a wrapper put at the start of a line (after its
// indentation) back to the end of the line before, where their base character is: the
// wrappers x/ansi has can break a long word between a base and its marks. Marks
// have no width, so no line grows.
func rejoinMarks(ls []string) []string {
	for i := 1; i < len(ls); i++ {
		j := 0
		for j < len(ls[i]) && (ls[i][j] == ' ' || ls[i][j] == Esc) {
			if ls[i][j] == Esc {
				n, _ := EscapeLen(ls[i][j:])
				j += n
				continue
			}
			j++
		}
		k := j
		for k < len(ls[i]) {
			r, size := utf8.DecodeRuneInString(ls[i][k:])
			if !isMark(r) {
				break
			}
			k += size
		}
		if k == j {
			continue
		}
		prev, reset := ls[i-1], ""
		if strings.HasSuffix(prev, "\x1b[m") {
			prev, reset = strings.TrimSuffix(prev, "\x1b[m"), "\x1b[m"
		}
		ls[i-1] = prev + ls[i][j:k] + reset
		ls[i] = ls[i][:j] + ls[i][k:]
	}
	return ls
}

// isMark reports whether r only extends the grapheme before it: a combining mark, a variation
// selector or an emoji skin-tone modifier.
func isMark(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) ||
		r >= 0xfe00 && r <= 0xfe0f || r >= 0x1f3fb && r <= 0x1f3ff
}

// trimLeadingSpaces drops the spaces before the first visible character of styled text,
// keeping the escapes among them.
func trimLeadingSpaces(s string) string {
	var b strings.Builder
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == Esc) {
		if s[i] == Esc {
			n, _ := EscapeLen(s[i:])
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		i++
	}
	b.WriteString(s[i:])
	return b.String()
}

// balanceSGR makes each line self-contained: an SGR still in effect at a line's end is reset
// there and set again at the start of the next line.
func balanceSGR(ls []string) []string {
	active := ""
	for i, l := range ls {
		reopen := active
		for j := 0; j < len(l); {
			k := strings.IndexByte(l[j:], Esc)
			if k < 0 {
				break
			}
			j += k
			n, sgr := EscapeLen(l[j:])
			if sgr {
				if seq := l[j : j+n]; seq == "\x1b[m" || seq == "\x1b[0m" {
					active = ""
				} else {
					active += seq
				}
			}
			j += n
		}
		l = reopen + l
		if active != "" {
			l += "\x1b[m"
		}
		ls[i] = strings.TrimRight(l, " ")
	}
	return ls
}
