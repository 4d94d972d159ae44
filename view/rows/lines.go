package rows

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
)

// Lines is an immutable run of rendered screen lines stored compactly: the lines back to back
// in one string, and where each ends. A line holds no '\n' and is at most the width it was
// rendered for.
//
// A run taken from a Source holds no text itself: its n lines are the source's, drawn when
// they are first read.
type Lines struct {
	buf  string
	ends []int32 // ends[i] is the byte offset in buf where line i ends
	src  Source
	n    int
}

// Source is a run whose lines are drawn on demand (a markdown document's complete lines,
// a page at a time). Line i, once read, never changes.
type Source interface {
	Row(i int) string
	// appendRows appends lines lo..hi-1 (those of them it has) to dst.
	AppendRows(dst []string, lo, hi int) []string
	// size is the memory the source holds, for the cache budget.
	Size() int
}

// FromSource is the first n lines of src.
func FromSource(src Source, n int) Lines { return Lines{src: src, n: n} }

// Len is how many lines the run holds.
func (l Lines) Len() int {
	if l.src != nil {
		return l.n
	}
	return len(l.ends)
}

// At is line i, 0 ≤ i < Len().
func (l Lines) At(i int) string {
	if l.src != nil {
		return l.src.Row(i)
	}
	start := int32(0)
	if i > 0 {
		start = l.ends[i-1]
	}
	return l.buf[start:l.ends[i]]
}

// Size is the memory the run holds, for the cache budget.
func (l Lines) Size() int {
	if l.src != nil {
		return l.src.Size()
	}
	return len(l.buf) + 4*cap(l.ends)
}

// Of stores ls compactly.
func Of(ls ...string) Lines {
	var b Builder
	for _, s := range ls {
		b.Add(s)
	}
	return b.Compact()
}

// Builder appends lines. A Lines value taken with Snapshot stays valid and unchanged after
// later appends: bytes and ends below a snapshot's length are never written again. A counting
// builder keeps no text, only how many lines were added (counted). Its text grows by a quarter
// once large, not by doubling: it holds at most bigRun or a quarter more than its text. A
// Builder must not be copied after its first Add.
type Builder struct {
	b         []byte
	ends      []int32
	placed    []placed // runs of lines drawn on demand, in order
	countOnly bool
	counted   int
}

// NewCounter is a counting builder.
func NewCounter() Builder { return Builder{countOnly: true} }

// Counting reports whether b is a counting builder.
func (b *Builder) Counting() bool { return b.countOnly }

// Len is how many lines were added (or counted) so far.
func (b *Builder) Len() int { return len(b.ends) + b.placedLines() + b.counted }

func (b *Builder) placedLines() int {
	if len(b.placed) == 0 {
		return 0
	}
	return b.placed[len(b.placed)-1].thru
}

// AddSource appends src's first n lines, which src draws when they are read (only counts
// them, in a counting builder): a run whose drawing is large is held as what draws it.
func (b *Builder) AddSource(src Source, n int) {
	if b.countOnly {
		b.counted += n
		return
	}
	if n > 0 {
		b.placed = append(b.placed, placed{src: src, at: b.Len(), n: n, thru: b.placedLines() + n})
	}
}

// Add appends line (only counts it, in a counting builder).
func (b *Builder) Add(line string) {
	if b.countOnly {
		b.counted++
		return
	}
	if cap(b.b)-len(b.b) < len(line) {
		n := len(b.b) + len(line)
		grown := make([]byte, len(b.b), min(2*n+64, max(n+n/4, bigRun)))
		copy(grown, b.b)
		b.b = grown
	}
	b.b = append(b.b, line...)
	b.ends = append(b.ends, int32(len(b.b)))
}

// bigRun is the size past which a Builder's text grows by a quarter instead of doubling.
const bigRun = 256 << 10

// Bytes is the size of the text added so far (0 in a counting builder).
func (b *Builder) Bytes() int { return len(b.b) }

// Size is the memory the builder holds, spare room included, for the cache budget.
func (b *Builder) Size() int { return cap(b.b) + 4*cap(b.ends) + placedSize(b.placed[:cap(b.placed)]) }

// AddCount adds n lines to a counting builder, which is the only kind that may be given a
// count instead of lines.
func (b *Builder) AddCount(n int) { b.counted += n }

// AddAll appends every line of l.
func (b *Builder) AddAll(l Lines) { b.AddRange(l, 0, l.Len()) }

// AddRange appends lines lo..hi-1 of l; those a source of l's placed runs draws on demand are
// placed again, not drawn.
func (b *Builder) AddRange(l Lines, lo, hi int) {
	mx, ok := l.src.(*mixed)
	if !ok {
		for i := lo; i < hi; i++ {
			b.Add(l.At(i))
		}
		return
	}
	for i := lo; i < hi; {
		k := mx.placedAt(i)
		if k >= 0 && i < mx.placed[k].at+mx.placed[k].n {
			p := mx.placed[k]
			n := min(hi, p.at+p.n) - i
			b.AddSource(shifted{src: p.src, by: i - p.at}, n)
			i += n
			continue
		}
		b.Add(mx.Row(i))
		i++
	}
}

// Snapshot is the lines added so far, sharing the builder's storage.
func (b *Builder) Snapshot() Lines {
	l := Lines{buf: unsafe.String(unsafe.SliceData(b.b), len(b.b)), ends: b.ends[:len(b.ends):len(b.ends)]}
	if len(b.placed) == 0 {
		return l
	}
	return FromSource(&mixed{buf: l.buf, ends: l.ends, placed: b.placed[:len(b.placed):len(b.placed)]}, b.Len())
}

// Shrink drops the builder's spare capacity once it stops growing. Snapshots taken before
// keep the old storage; take a new one.
func (b *Builder) Shrink() {
	if cap(b.b) > len(b.b) {
		b.b = append([]byte(nil), b.b...)
	}
	if cap(b.ends) > len(b.ends) {
		b.ends = append([]int32(nil), b.ends...)
	}
	if cap(b.placed) > len(b.placed) {
		b.placed = append([]placed(nil), b.placed...)
	}
}

// Compact returns the lines with no spare capacity, for runs that will not grow.
func (b *Builder) Compact() Lines {
	if len(b.placed) > 0 {
		mx := &mixed{buf: string(b.b), ends: append([]int32(nil), b.ends...), placed: append([]placed(nil), b.placed...)}
		return FromSource(mx, b.Len())
	}
	if len(b.ends) == 0 {
		return Lines{}
	}
	return Lines{buf: string(b.b), ends: append([]int32(nil), b.ends...)}
}

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

// BalanceSGR makes each line self-contained: an SGR still in effect at a line's end is reset
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

// AppendRange appends lines lo..hi-1 of the runs segs, taken as one sequence.
func AppendRange(dst []string, segs []Lines, lo, hi int) []string {
	base := 0
	for _, s := range segs {
		n := s.Len()
		switch {
		case base+n <= lo || base >= hi:
		case s.src != nil:
			dst = s.src.AppendRows(dst, max(lo-base, 0), min(hi-base, n))
		default:
			for j := max(lo-base, 0); j < min(hi-base, n); j++ {
				dst = append(dst, s.At(j))
			}
		}
		base += n
		if base >= hi {
			break
		}
	}
	return dst
}
