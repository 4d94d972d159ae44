package view

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// lines is an immutable run of rendered screen lines stored compactly: the lines back to back
// in one string, and where each ends. A line holds no '\n' and is at most the width it was
// rendered for.
//
// A run taken from a pageSource holds no text itself: its n lines are the source's, drawn when
// they are first read.
type lines struct {
	buf  string
	ends []int32 // ends[i] is the byte offset in buf where line i ends
	src  pageSource
	n    int
}

// pageSource is a run whose lines are drawn on demand (a markdown document's complete lines,
// a page at a time). Line i, once read, never changes.
type pageSource interface {
	row(i int) string
	// appendRows appends lines lo..hi-1 (those of them it has) to dst.
	appendRows(dst []string, lo, hi int) []string
	// size is the memory the source holds, for the cache budget.
	size() int
}

// linesFrom is the first n lines of src.
func linesFrom(src pageSource, n int) lines { return lines{src: src, n: n} }

func (l lines) len() int {
	if l.src != nil {
		return l.n
	}
	return len(l.ends)
}

func (l lines) at(i int) string {
	if l.src != nil {
		return l.src.row(i)
	}
	start := int32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.buf[start:l.ends[i]]
}

// size is the memory the run holds, for the cache budget.
func (l lines) size() int {
	if l.src != nil {
		return l.src.size()
	}
	return len(l.buf) + 4*cap(l.ends)
}

// linesOf stores ls compactly.
func linesOf(ls ...string) lines {
	var b linesBuilder
	for _, s := range ls {
		b.add(s)
	}
	return b.compact()
}

// linesBuilder appends lines. A lines value taken with snapshot stays valid and unchanged after
// later appends: bytes and ends below a snapshot's length are never written again. A counting
// builder keeps no text, only how many lines were added (counted).
type linesBuilder struct {
	b         strings.Builder
	ends      []int32
	countOnly bool
	counted   int
}

// newCounter is a counting builder.
func newCounter() linesBuilder { return linesBuilder{countOnly: true} }

// counts reports whether b is a counting builder.
func (b *linesBuilder) counts() bool { return b.countOnly }

// length is how many lines were added (or counted) so far.
func (b *linesBuilder) length() int { return len(b.ends) + b.counted }

func (b *linesBuilder) add(line string) {
	if b.countOnly {
		b.counted++
		return
	}
	b.b.WriteString(line)
	b.ends = append(b.ends, int32(b.b.Len()))
}

// addCount adds n lines to a counting builder, which is the only kind that may be given a
// count instead of lines.
func (b *linesBuilder) addCount(n int) { b.counted += n }

func (b *linesBuilder) addAll(l lines) {
	for i := range l.len() {
		b.add(l.at(i))
	}
}

func (b *linesBuilder) snapshot() lines {
	return lines{buf: b.b.String(), ends: b.ends[:len(b.ends):len(b.ends)]}
}

// shrink drops the builder's spare capacity once it stops growing. Snapshots taken before
// keep the old storage; take a new one.
func (b *linesBuilder) shrink() {
	if b.b.Cap() > b.b.Len() {
		s := b.b.String()
		b.b.Reset()
		b.b.Grow(len(s))
		b.b.WriteString(s)
	}
	if cap(b.ends) > len(b.ends) {
		b.ends = append([]int32(nil), b.ends...)
	}
}

// compact returns the lines with no spare capacity, for runs that will not grow.
func (b *linesBuilder) compact() lines {
	if len(b.ends) == 0 {
		return lines{}
	}
	return lines{buf: strings.Clone(b.b.String()), ends: append([]int32(nil), b.ends...)}
}

// tabWidth is how many spaces a tab becomes before text is measured: a tab has no fixed width
// on a terminal, so none reaches the screen.
const tabWidth = 4

// tabSpaces is what a tab is drawn as, everywhere (markdown, code, tool output).
var tabSpaces = strings.Repeat(" ", tabWidth)

var tabs = strings.NewReplacer("\t", tabSpaces)

func expandTabs(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	return tabs.Replace(s)
}

// wrapInto word-wraps sanitised, unstyled text to width cells (breaking words longer than a
// line) and adds each line, prefixed by first on the first line and by rest on the others;
// style is applied to the text of each line. Widths are measured in cells, so wide and
// combining characters keep the layout. An empty text adds one line holding just first.
func wrapInto(b *linesBuilder, text string, width int, first, rest string, style func(string) string) {
	indent := max(ansi.StringWidth(first), ansi.StringWidth(rest))
	if indent >= width { // no room to indent: the text gets every cell
		first, rest, indent = "", "", 0
	}
	avail := max(1, width-indent)
	prefix := first
	for src := range strings.SplitSeq(expandTabs(text), "\n") {
		parts := []string{src}
		if ansi.StringWidth(src) > avail {
			parts = wrapLines(src, avail)
		}
		for _, line := range parts {
			line = strings.TrimRight(line, " ")
			if style != nil && line != "" {
				line = style(line)
			}
			b.add(strings.TrimRight(prefix+line, " "))
			prefix = rest
		}
	}
}

// wrapText is wrapInto for a one-off run.
func wrapText(text string, width int, first, rest string, style func(string) string) lines {
	var b linesBuilder
	wrapInto(&b, text, width, first, rest, style)
	return b.compact()
}

// clampWidth cuts the lines wider than width (closing any SGR left open), for layouts whose
// fixed indentation cannot fit a very narrow screen.
func clampWidth(l lines, width int) lines {
	var b linesBuilder
	for i := range l.len() {
		line := l.at(i)
		if ansi.StringWidth(line) > width {
			line = trimStyledEnd(ansi.Truncate(line, max(0, width), ""))
		}
		b.add(line)
	}
	return b.compact()
}

// fit returns s cut to at most width cells, ending in "…" when cut.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// wrapStyled wraps text that may hold SGR sequences: the first line to width cells, the
// others to width minus rest's width, indented by rest. Each line closes an SGR left open at
// its end and the next line reopens it, so no line's style depends on another being drawn.
func wrapStyled(s string, width int, rest string) []string {
	s = expandTabs(s)
	first, more, _ := strings.Cut(strings.Join(wrapLines(s, max(1, width)), "\n"), "\n")
	out := []string{first}
	if more != "" {
		if ansi.StringWidth(rest) >= width {
			rest = ""
		}
		// The rest of s after the first line's cells; TruncateLeft keeps the escapes it skips.
		rem := trimLeadingSpaces(ansi.TruncateLeft(s, ansi.StringWidth(first), ""))
		avail := max(1, width-ansi.StringWidth(rest))
		for _, line := range wrapLines(rem, avail) {
			out = append(out, rest+line)
		}
	}
	return balanceSGR(rejoinMarks(out))
}

// wrapLines word-wraps s (which may hold SGR) to width cells with x/ansi, then hard-wraps any
// line the word wrap left too wide (it can, at tiny widths) and rejoins split marks.
func wrapLines(s string, width int) []string {
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
		for j < len(ls[i]) && (ls[i][j] == ' ' || ls[i][j] == esc) {
			if ls[i][j] == esc {
				n, _ := escapeLen(ls[i][j:])
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
	for i < len(s) && (s[i] == ' ' || s[i] == esc) {
		if s[i] == esc {
			n, _ := escapeLen(s[i:])
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
			k := strings.IndexByte(l[j:], esc)
			if k < 0 {
				break
			}
			j += k
			n, sgr := escapeLen(l[j:])
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

// appendRange appends lines lo..hi-1 of the runs segs, taken as one sequence.
func appendRange(dst []string, segs []lines, lo, hi int) []string {
	base := 0
	for _, s := range segs {
		n := s.len()
		switch {
		case base+n <= lo || base >= hi:
		case s.src != nil:
			dst = s.src.appendRows(dst, max(lo-base, 0), min(hi-base, n))
		default:
			for j := max(lo-base, 0); j < min(hi-base, n); j++ {
				dst = append(dst, s.at(j))
			}
		}
		base += n
		if base >= hi {
			break
		}
	}
	return dst
}
