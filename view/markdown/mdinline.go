package markdown

import (
	"html"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// cell is one grapheme of a source line's inline content as drawn: its text, width and roles.
// end and st say where parsing can resume after it (end < 0: not here, the cell is inside a
// link that must be parsed whole). A provisional cell may change when more text arrives (an
// undecided delimiter at the end of the text, a link not yet closed).
type cell struct {
	s     string
	w     int
	style mdStyle
	prov  bool
	end   int
	st    inlineState
}

// inlineState is the inline parser's state between two graphemes of one source line.
type inlineState struct {
	emph           mdStyle // mdBold, mdItalic, mdStrike in effect
	boldCh, italCh byte    // the delimiter that opened each
	code           int32   // the open code span's backtick count; 0 outside one
	prev           rune    // the rune before; 0 at the start of the line
	// Where the open spans began, for the finished line's second pass.
	boldAt, italAt, strikeAt, codeAt int32
}

// Inline rules, chosen so a line's look never depends on text after it except where noted:
//   - Emphasis (* _ ** __ ***), strike (~~) and code spans (`…`) style the text after their
//     opener at once, as the text streams; a line that ends with one still open is drawn again
//     with that opener as literal text (only the open line can change this way).
//   - A delimiter run at the very end of the streamed text waits for the next byte, drawn as
//     literal meanwhile.
//   - A link [text](url) or image ![alt](url) is drawn as its text then its address, dimmed;
//     until its ')' arrives the text from '[' on is drawn literally. Link text is at most
//     maxLinkText bytes and the address maxLinkURL bytes, so waiting is bounded.
//   - A backslash before ASCII punctuation makes it literal; an HTML character reference is
//     decoded, and what it decodes to passes safe.Text like the rest.
//

const (
	maxLinkText = 256
	maxLinkURL  = 2048
	maxEntity   = 32
)

// inlineParser parses one source line's content (sanitised, tabs expanded).
type inlineParser struct {
	src     string
	base    mdStyle
	final   bool    // no more text follows src
	literal []int32 // offsets of openers drawn as literal text (the finished line's second pass)
	out     []cell
	sink    *chunkSink // when set, takes out's cells as they gather (mdlong.go)
}

func (p *inlineParser) isLiteral(i int) bool {
	for _, o := range p.literal {
		if int(o) == i {
			return true
		}
	}
	return false
}

func noSpans() inlineState { return inlineState{boldAt: -1, italAt: -1, strikeAt: -1, codeAt: -1} }

// parseLine draws a whole source line's content: text is final when the line is complete.
// Spans still open at the end of a final line are drawn again with their opener literal.
func parseLine(src string, base mdStyle, final bool) []cell {
	return parseLineInto(make([]cell, 0, len(src)), src, base, final)
}

// parseLineInto is parseLine reusing out's storage.
func parseLineInto(out []cell, src string, base mdStyle, final bool) []cell {
	p := inlineParser{src: src, base: base, final: final, out: out[:0]}
	if !final {
		p.run(0, noSpans())
		return p.out
	}
	return parseLineWith(&p)
}

func (p *inlineParser) emit(s string, style mdStyle, end int, st inlineState) {
	w := 1
	if len(s) > 1 || s[0] >= utf8.RuneSelf {
		w = ansi.StringWidth(s)
	}
	p.out = append(p.out, cell{s: s, w: w, style: style, end: end, st: st})
}

// emitText adds the graphemes of s as literal text; the last one can be resumed after at end.
func (p *inlineParser) emitText(s string, style mdStyle, end int, st inlineState, prov bool) {
	for len(s) > 0 {
		g := graphemeAt(s)
		s = s[len(g):]
		e := -1
		if s == "" {
			e = end
		}
		p.emit(g, style, e, st)
		p.out[len(p.out)-1].prov = prov
	}
}

// graphemeAt returns the grapheme cluster s starts with.
func graphemeAt(s string) string {
	if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf) {
		return s[:1]
	}
	g, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if g == "" {
		_, n := utf8.DecodeRuneInString(s)
		return s[:n]
	}
	return g
}

func (p *inlineParser) style(st inlineState) mdStyle {
	s := p.base | st.emph
	if st.code > 0 {
		s |= mdCode
	}
	return s
}

// run parses src[from:] in state st and returns the state at the end.
func (p *inlineParser) run(from int, st inlineState) inlineState {
	src := p.src
	i := from
	for i < len(src) {
		if p.sink != nil && len(p.out) >= p.sink.limit {
			p.out = append(p.out[:0], p.sink.take(p.out)...)
			if p.sink.stop {
				return st
			}
		}
		c := src[i]
		if st.code > 0 {
			if c == '`' {
				n := runLen(src, i)
				if i+n == len(src) && !p.final {
					p.emitText(src[i:], p.style(st), len(src), st, true)
					return st
				}
				if int32(n) == st.code {
					st.code, st.codeAt, st.prev = 0, -1, '`'
					i += n
					continue
				}
				p.emitText(src[i:i+n], p.style(st), i+n, st, false)
				i += n
				continue
			}
			if c == '&' {
				if r, n := charRef(src[i:]); n > 0 && safe.Text(string(r)) != string(r) {
					p.emitText(safe.Text(string(r)), p.style(st), i+n, st, false)
					i += n
					continue
				}
			}
			if c == '\t' {
				p.emitText(rows.TabSpaces, p.style(st), i+1, st, false)
				i++
				continue
			}
			g := graphemeAt(src[i:])
			p.emit(g, p.style(st), i+len(g), st)
			i += len(g)
			continue
		}
		switch c {
		case '\t':
			st.prev = ' '
			p.emitText(rows.TabSpaces, p.style(st), i+1, st, false)
			i++
			continue
		case '\\':
			if i+1 == len(src) && !p.final {
				p.emitText(`\`, p.style(st), len(src), st, true)
				return st
			}
			if i+1 < len(src) && isASCIIPunct(src[i+1]) {
				st.prev = rune(src[i+1])
				p.emit(src[i+1:i+2], p.style(st), i+2, st)
				i += 2
				continue
			}
		case '*', '_', '~':
			n := runLen(src, i)
			if i+n == len(src) && !p.final {
				p.emitText(src[i:], p.style(st), len(src), st, true)
				return st
			}
			if rem := p.delimiters(&st, i, c, n); rem < n {
				st.prev = rune(c)
				if rem > 0 {
					p.emitText(src[i+n-rem:i+n], p.style(st), i+n, st, false)
				}
				i += n
				continue
			}
			st.prev = rune(c)
			p.emitText(src[i:i+n], p.style(st), i+n, st, false)
			i += n
			continue
		case '`':
			n := runLen(src, i)
			if i+n == len(src) && !p.final {
				p.emitText(src[i:], p.style(st), len(src), st, true)
				return st
			}
			if !p.isLiteral(i) {
				st.code, st.codeAt, st.prev = int32(n), int32(i), '`'
				i += n
				continue
			}
			p.emitText(src[i:i+n], p.style(st), i+n, st, false)
			st.prev = '`'
			i += n
			continue
		case '[', '!':
			if c == '!' && (i+1 >= len(src) || src[i+1] != '[') {
				if i+1 == len(src) && !p.final {
					p.emitText("!", p.style(st), len(src), st, true)
					return st
				}
				break
			}
			start := i
			if c == '!' {
				start++
			}
			switch l, verdict := scanLink(src, start, p.final); verdict {
			case linkPending:
				p.emitText(src[i:], p.style(st), len(src), st, true)
				return st
			case linkFound:
				p.link(st, l)
				st.prev = ')'
				i = l.end
				continue
			}
		case '&':
			if r, n, verdict := scanEntity(src, i, p.final); verdict == linkPending {
				p.emitText(src[i:], p.style(st), len(src), st, true)
				return st
			} else if verdict == linkFound {
				p.emitText(safe.Text(r), p.style(st), i+n, st, false)
				st.prev = ';'
				i += n
				continue
			}
		}
		g := graphemeAt(src[i:])
		r, _ := utf8.DecodeLastRuneInString(g)
		st.prev = r
		p.emit(g, p.style(st), i+len(g), st)
		i += len(g)
	}
	return st
}

// delimiters applies a run of n emphasis or strike characters c at i to st and returns how
// many of them are left as literal text (n when the run does nothing).
func (p *inlineParser) delimiters(st *inlineState, i int, c byte, n int) int {
	next, _ := utf8.DecodeRuneInString(p.src[i+n:])
	if i+n >= len(p.src) {
		next = 0
	}
	prev := st.prev
	left := !isSpaceRune(next) && (!isPunctRune(next) || isSpaceRune(prev) || isPunctRune(prev))
	right := !isSpaceRune(prev) && (!isPunctRune(prev) || isSpaceRune(next) || isPunctRune(next))
	canOpen, canClose := left, right
	if c == '_' {
		canOpen = left && (!right || isPunctRune(prev))
		canClose = right && (!left || isPunctRune(next))
	}
	if c == '~' {
		if n != 2 {
			return n
		}
		switch {
		case canClose && st.emph&mdStrike != 0:
			st.emph &^= mdStrike
			st.strikeAt = -1
			return 0
		case canOpen && st.emph&mdStrike == 0 && !p.isLiteral(i):
			st.emph |= mdStrike
			st.strikeAt = int32(i)
			return 0
		}
		return n
	}
	rem := n
	if canClose {
		if rem >= 2 && st.emph&mdBold != 0 && st.boldCh == c && !(rem == 3 && st.emph&mdItalic != 0 && st.italCh == c && st.italAt > st.boldAt) {
			st.emph &^= mdBold
			st.boldAt = -1
			rem -= 2
		}
		if rem >= 1 && st.emph&mdItalic != 0 && st.italCh == c {
			st.emph &^= mdItalic
			st.italAt = -1
			rem--
		}
		if rem >= 2 && st.emph&mdBold != 0 && st.boldCh == c {
			st.emph &^= mdBold
			st.boldAt = -1
			rem -= 2
		}
	}
	if rem == n && canOpen && !p.isLiteral(i) {
		switch {
		case rem >= 3 && st.emph&(mdBold|mdItalic) == 0:
			st.emph |= mdBold | mdItalic
			st.boldCh, st.italCh, st.boldAt, st.italAt = c, c, int32(i), int32(i)
			rem -= 3
		case rem == 2 && st.emph&mdBold == 0:
			st.emph |= mdBold
			st.boldCh, st.boldAt = c, int32(i)
			rem = 0
		case rem == 1 && st.emph&mdItalic == 0:
			st.emph |= mdItalic
			st.italCh, st.italAt = c, int32(i)
			rem = 0
		}
	}
	return rem
}

// linkSpan is where a link's parts are: src[text:textEnd] is its text, src[url:urlEnd] its
// address, and it ends before end.
type linkSpan struct {
	text, textEnd, url, urlEnd, end int
}

const (
	linkNone = iota
	linkPending
	linkFound
)

// scanLink looks for [text](url) at src[i] == '['. Pending means the text so far could still
// become one (and final is false).
func scanLink(src string, i int, final bool) (linkSpan, int) {
	l := linkSpan{text: i + 1}
	j := i + 1
	for ; j < len(src) && src[j] != ']'; j++ {
		if src[j] == '[' || j-i > maxLinkText {
			return l, linkNone
		}
		if src[j] == '\\' {
			j++
		}
	}
	if j >= len(src) {
		return l, pendingUnless(final)
	}
	l.textEnd = j
	j++
	if j == len(src) {
		return l, pendingUnless(final)
	}
	if src[j] != '(' {
		return l, linkNone
	}
	l.url = j + 1
	for j++; j < len(src) && src[j] != ')'; j++ {
		if src[j] == ' ' || j-l.url > maxLinkURL {
			return l, linkNone
		}
	}
	if j >= len(src) {
		return l, pendingUnless(final)
	}
	l.urlEnd, l.end = j, j+1
	return l, linkFound
}

func pendingUnless(final bool) int {
	if final {
		return linkNone
	}
	return linkPending
}

// link draws a found link: its text (parsed for emphasis and code) in the link role, then the
// address dimmed unless it is the text itself. Only the last cell can be resumed after.
func (p *inlineParser) link(st inlineState, l linkSpan) {
	text := p.src[l.text:l.textEnd]
	url := p.src[l.url:l.urlEnd]
	role := mdLink
	inner := inlineParser{src: text, base: p.style(st) | role, final: true}
	for _, c := range parseLineWith(&inner) {
		c.end = -1
		p.out = append(p.out, c)
	}
	if url != "" && url != text {
		if len(text) > 0 {
			p.emitText(" ", p.style(st), -1, st, false)
		}
		p.emitText(url, p.style(st)|mdURL, -1, st, false)
	}
	if len(p.out) > 0 {
		last := &p.out[len(p.out)-1]
		last.end, last.st = l.end, st
		last.st.prev = ')'
	}
}

// parseLineWith runs a parser set up by the caller over its whole text, with the second pass.
func parseLineWith(p *inlineParser) []cell {
	for range 8 {
		p.out = p.out[:0]
		st := p.run(0, noSpans())
		open := false
		for _, at := range []int32{st.boldAt, st.italAt, st.strikeAt, st.codeAt} {
			if at >= 0 {
				p.literal = append(p.literal, at)
				open = true
			}
		}
		if !open {
			break
		}
	}
	return p.out
}

// scanEntity looks for an HTML character reference at src[i] == '&' and returns what it
// decodes to and its length.
func scanEntity(src string, i int, final bool) (string, int, int) {
	j := i + 1
	for j < len(src) && j-i <= maxEntity && (isAlnum(src[j]) || src[j] == '#') {
		j++
	}
	if j == len(src) && j-i <= maxEntity {
		return "", 0, pendingUnless(final)
	}
	if j >= len(src) || src[j] != ';' || j == i+1 {
		return "", 0, linkNone
	}
	ref := src[i : j+1]
	if r, n := charRef(ref); n == len(ref) { // numeric: the code point itself, whatever it is
		if r > unicode.MaxRune || r >= 0xd800 && r <= 0xdfff || r == 0 {
			r = unicode.ReplacementChar
		}
		return string(r), n, linkFound
	}
	dec := html.UnescapeString(ref)
	if dec == ref {
		return "", 0, linkNone
	}
	return dec, j + 1 - i, linkFound
}

func runLen(s string, i int) int {
	n := 1
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	return n
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSpaceRune(r rune) bool { return r == 0 || unicode.IsSpace(r) }

// isPunctRune is punctuation for emphasis; the sanitiser's stand-ins for controls (␛, ␇) are
// not, so a delimiter next to one stays literal as in a word.
func isPunctRune(r rune) bool {
	return r != 0 && !(r >= 0x2400 && r <= 0x243f) && (unicode.IsPunct(r) || unicode.IsSymbol(r))
}
