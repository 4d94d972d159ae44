package markdown

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/view/rows"
)

// DefaultMeasure is the widest a reply's prose, tables and code are drawn, in cells: wider
// lines are hard to read, and a wide terminal would stretch them.
const DefaultMeasure = 100

// Renderer holds what drawing markdown at one width needs.
type Renderer struct {
	pal    *Palette
	Width  int
	margin string // every reply line starts with it
	text   int    // cells after the margin: the width, capped at the measure

	LinesDrawn int // complete source lines drawn (tests check each is drawn once)

	// While a document's complete line is measured (rec, states) or counted from its measure
	// (use): mdmeasure.go.
	rec     *[]byte
	use     []byte
	states  *[]codeState
	scratch []byte  // an item's body while it is measured
	toks    []token // an item's tokens while it is counted
	cells   []cell  // a line's cells while it is drawn

	code *codeReader // set while CodeBlocks reads the blocks: nothing is drawn

	// at is where the complete line being drawn can be read again, while a layout draws one:
	// a long row keeps that, not its text (mdrowlong.go).
	at textRef
}

func NewRenderer(pal *Palette, width, measure int) *Renderer {
	m := &Renderer{pal: pal, Width: width}
	if width >= 8 {
		m.margin = "  "
	}
	m.text = max(1, width-len(m.margin))
	if measure > 0 {
		m.text = min(m.text, measure)
	}
	return m
}

// Block rules, line by line. A source line is drawn from its own text and the state the lines
// before it left, never from lines after it, so a complete line's display lines never change:
//   - A blank line draws nothing itself; the next drawn line is preceded by one blank line.
//   - "#"…"######" then a space: a heading, drawn without its marks.
//   - "---", "***", "___" (three or more, spaces allowed): a rule across the measure.
//   - "-", "*", "+" or a number with "." or ")" then a space: a list item, its marker kept
//     (numbers as written) and its text hanging after it. An item indented past the marker of
//     the one above is nested in it; an indented line that is no item continues the item.
//   - ">": a quote, a bar per level.
//   - ``` or ~~~: a fenced code block, highlighted line by line by its language, its long
//     lines cut at the measure and continued after "↪". Its fences are drawn as short rules
//     (see openingRule), never as the backticks or tildes written, one row each.
//   - A line starting with "|" may be a table's header: it is drawn only with the next line,
//     as a table's header when that line is a delimiter row ("|---|:--:|"), or as text. A
//     table's column widths are decided then, from the header and the delimiter row (see
//     planTable); every row after wraps its cells inside those columns. Rows start with "|".
//   - Anything else is text. Line breaks are kept; long lines wrap at the measure.
type blockState struct {
	drawn, blank bool
	fence        fenceBlock
	list         []listItem // open list items, outermost first; replaced, never written in place
	table        *tableLayout
	header       string // a complete line that may be a table's header, not drawn yet
	hasHeader    bool
}

type listItem struct {
	marker int // the source column of its marker
	indent int // the display column its text starts at
}

type fenceBlock struct {
	open   bool
	char   byte
	n      int
	strip  int // source columns of indentation removed from each code line
	indent int // display column of the code
	lang   *codeLang
	code   codeState
}

// shape is how a line of text (not code, not a table) is drawn: its prefixes and where its
// inline content begins.
type shape struct {
	kind        int
	first, rest string // painted prefixes of the first and the other display lines
	pw          int    // their width
	content     int    // offset of the inline content in the line
	base        mdStyle
}

const (
	shapeText = iota
	shapeHeading
	shapeRule
)

// gap adds the blank line a blank source line left, before something is drawn.
func (m *Renderer) gap(st *blockState, out *rows.Builder) {
	if st.blank && st.drawn {
		out.Add("")
	}
	st.blank, st.drawn = false, true
}

// line draws one source line (sanitised; final when complete) and advances st.
func (m *Renderer) line(st *blockState, s string, final bool, out *rows.Builder) {
	if final && !out.Counting() {
		m.LinesDrawn++
	}
	if st.fence.open {
		m.codeLine(st, s, out)
		return
	}
	if isBlank(s) {
		m.flush(st, out)
		st.blank, st.table = true, nil
		return
	}
	if st.hasHeader {
		header := st.header
		st.header, st.hasHeader = "", false
		if t := m.planTable(header, s); t != nil {
			m.gap(st, out)
			m.row(t, header, mdTableHeader, final, out)
			m.border(t, out)
			st.table = t
			return
		}
		m.text1(st, header, true, out)
	}
	if st.table != nil {
		if isRow(s) {
			m.gap(st, out)
			m.row(st.table, s, 0, final, out)
			return
		}
		st.table = nil
	}
	indent, rest := leading(s)
	if c, n, info := fenceRun(rest); n >= 3 && (indent <= 3 || len(st.list) > 0) && !(c == '`' && strings.IndexByte(info, '`') >= 0) {
		if final {
			col := m.popTo(st, indent)
			st.fence = fenceBlock{open: true, char: c, n: n, strip: indent, indent: col, lang: lookupLang(info)}
			if m.code != nil {
				m.code.open(indent)
			}
		}
		m.gap(st, out)
		out.Add(m.margin + strings.Repeat(" ", m.codeIndent(st)) + m.pal.paint(openingRule(info), mdFence))
		return
	}
	if final && indent <= 3 && rest[0] == '|' && len(s) <= maxHeader && len(st.list) == 0 {
		st.header, st.hasHeader = s, true
		return
	}
	m.text1(st, s, final, out)
}

// maxHeader is the longest line that can be a table's header.
const maxHeader = 2048

// flush draws a held table header as text.
func (m *Renderer) flush(st *blockState, out *rows.Builder) {
	if st.hasHeader {
		h := st.header
		st.header, st.hasHeader = "", false
		m.text1(st, h, true, out)
	}
}

// text1 draws a line that is neither code nor a table row.
func (m *Renderer) text1(st *blockState, s string, final bool, out *rows.Builder) {
	sh := m.shape(st, s)
	m.gap(st, out)
	if m.code != nil { // only the block structure is read
		return
	}
	if sh.kind == shapeRule {
		out.Add(m.margin + m.pal.paint(strings.Repeat("─", m.text), mdRule))
		return
	}
	content := s[sh.content:]
	if sh.kind == shapeHeading && final {
		content = trimClosingHashes(content)
	}
	if m.use != nil {
		item, rest, ok := nextItem(m.use)
		m.use = rest
		if avail, _, _ := m.prefixes(sh); ok {
			m.toks = decodeWords(item, m.toks)
			if n, ok := wrapCount(m.toks, avail); ok {
				out.AddCount(n)
				return
			}
		}
	}
	if len(content) >= longLine {
		if m.rec != nil {
			*m.rec = appendUnmeasured(*m.rec)
		}
		if final && !out.Counting() {
			t := m.longText(sh, s, content)
			out.AddSource(t, t.wrap.lines)
			return
		}
		m.wrappedLong(sh, content, final, out, longLineChunk)
		return
	}
	cells := parseLineInto(m.cells, content, sh.base, final)
	m.cells = cells // drawn or measured here, never kept
	if m.rec != nil {
		*m.rec = appendWordsItem(*m.rec, cells, &m.scratch)
	}
	m.wrapped(sh, cells, out)
}

// wrapped adds cells word-wrapped under sh's prefixes.
func (m *Renderer) wrapped(sh shape, cells []cell, out *rows.Builder) {
	avail, firstP, restP := m.prefixes(sh)
	m.addRows(out, cells, wrapWords(cells, avail), firstP, restP)
}

// addRows adds the wrapped lines ls of cells, the first under first and the others under rest
// (only their count, when out is counting).
func (m *Renderer) addRows(out *rows.Builder, cells []cell, ls []cellLine, first, rest string) {
	if out.Counting() {
		out.AddCount(len(ls))
		return
	}
	for i, l := range ls {
		p := rest
		if i == 0 {
			p = first
		}
		out.Add(m.paintRow(p, cells, l))
	}
}

// paintRow is wrapped line l of cells drawn under prefix.
func (m *Renderer) paintRow(prefix string, cells []cell, l cellLine) string {
	return strings.TrimRight(m.margin+prefix+paintCells(m.pal, cells[l.start:l.stop]), " ")
}

// codeRows is the width a fenced code line indented indent columns (pad) gets, and the
// prefixes of its first and continued rows (marked ↪); too narrow, the prefixes are dropped.
func (m *Renderer) codeRows(indent int, pad string) (avail int, lead, cont string) {
	avail, lead, cont = m.text-indent-2, pad+"  ", pad+m.pal.paint("↪", mdFence)+" "
	if avail < 4 {
		avail, lead, cont = m.text, "", ""
	}
	return avail, lead, cont
}

// prefixes returns the width text gets under sh's prefixes, and the prefixes; when they leave
// too little room they are dropped.
func (m *Renderer) prefixes(sh shape) (int, string, string) {
	if m.text-sh.pw < 4 {
		return m.text, "", ""
	}
	return m.text - sh.pw, sh.first, sh.rest
}

// shape classifies a line of text and advances the list state.
func (m *Renderer) shape(st *blockState, s string) shape {
	indent, rest := leading(s)
	content := len(s) - len(rest)
	if indent <= 3 {
		if lvl := headingLevel(rest); lvl > 0 {
			st.list = nil
			base := mdH3
			switch lvl {
			case 1:
				base = mdH1
			case 2:
				base = mdH2
			}
			c := content + lvl
			for c < len(s) && (s[c] == ' ' || s[c] == '\t') {
				c++
			}
			return shape{kind: shapeHeading, content: c, base: base}
		}
		if len(s) <= 200 && isRule(rest) {
			st.list = nil
			return shape{kind: shapeRule, content: len(s)}
		}
		if rest[0] == '>' {
			st.list = nil
			depth, c := 0, content
			for c < len(s) && s[c] == '>' {
				depth++
				c++
				if c < len(s) && s[c] == ' ' {
					c++
				}
			}
			bar := m.pal.paint("│", mdQuoteBar) + " "
			p := strings.Repeat(bar, depth)
			return shape{first: p, rest: p, pw: 2 * depth, content: c, base: mdQuote}
		}
	}
	if marker, n := listMarker(rest); n > 0 {
		parent := m.popTo(st, indent)
		glyph := marker
		if marker == "-" || marker == "*" || marker == "+" {
			glyph = [...]string{"•", "◦", "▪"}[min(len(st.list), 2)]
		}
		item := listItem{marker: indent, indent: parent + len([]rune(glyph)) + 1}
		st.list = append(slices.Clip(st.list), item)
		c := content + n
		for c < len(s) && s[c] == ' ' {
			c++
		}
		return shape{first: strings.Repeat(" ", parent) + m.pal.paint(glyph, mdBullet) + " ",
			rest: strings.Repeat(" ", item.indent), pw: item.indent, content: c}
	}
	if indent > 0 && len(st.list) > 0 {
		col := m.popTo(st, indent)
		if len(st.list) > 0 {
			col = st.list[len(st.list)-1].indent
		}
		p := strings.Repeat(" ", col)
		return shape{first: p, rest: p, pw: col, content: content}
	}
	st.list = nil
	return shape{content: content}
}

// popTo ends the list items a line at source column indent is not inside, and returns the
// display column the innermost remaining item's text starts at (0 outside a list).
func (m *Renderer) popTo(st *blockState, indent int) int {
	n := len(st.list)
	for n > 0 && indent <= st.list[n-1].marker {
		n--
	}
	if n < len(st.list) {
		st.list = slices.Clip(st.list[:n])
	}
	if n == 0 {
		return 0
	}
	return st.list[n-1].indent
}

// codeIndent is the display column of the open (or opening) code block's fence.
func (m *Renderer) codeIndent(st *blockState) int {
	if st.fence.open {
		return st.fence.indent
	}
	return 0
}

// codeLine draws one line of an open fenced block, or its closing fence.
func (m *Renderer) codeLine(st *blockState, s string, out *rows.Builder) {
	f := &st.fence
	pad := strings.Repeat(" ", f.indent)
	if indent, rest := leading(s); indent <= f.strip+3 {
		if c, n, info := fenceRun(rest); c == f.char && n >= f.n && isBlank(info) {
			out.Add(m.margin + pad + m.pal.paint(fenceRule, mdFence))
			st.fence = fenceBlock{}
			if m.code != nil {
				m.code.close()
			}
			return
		}
	}
	if m.code != nil {
		m.code.line()
		return
	}
	avail, lead, cont := m.codeRows(f.indent, pad)
	if m.use != nil {
		item, rest, ok := nextItem(m.use)
		m.use = rest
		if ok {
			if after, n, ok := codeCount(item, avail, *m.states); ok {
				f.code = after
				out.AddCount(n)
				return
			}
		}
	}
	var cells []cell
	cells, f.code = highlight(f.lang, stripColumns(s, f.strip), f.code)
	if m.rec != nil {
		*m.rec = appendCodeItem(*m.rec, cells, f.code, m.states)
	}
	m.addRows(out, cells, wrapHard(cells, avail), lead, cont)
}

// leading returns the indentation of s in columns (a tab is four) and s after it.
func leading(s string) (int, string) {
	col, i := 0, 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		if s[i] == '\t' {
			col += len(rows.TabSpaces)
		} else {
			col++
		}
		i++
	}
	return col, s[i:]
}

// stripColumns removes up to n columns of indentation from s.
func stripColumns(s string, n int) string {
	col, i := 0, 0
	for i < len(s) && col < n && s[i] == ' ' {
		col++
		i++
	}
	return s[i:]
}

func isBlank(s string) bool { return strings.TrimLeft(s, " \t") == "" }

func headingLevel(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	return n
}

// trimClosingHashes drops a heading's closing run of '#' (after a space) and trailing spaces.
func trimClosingHashes(s string) string {
	t := strings.TrimRight(s, " \t")
	u := strings.TrimRight(t, "#")
	if u == "" || u[len(u)-1] == ' ' || u[len(u)-1] == '\t' {
		return strings.TrimRight(u, " \t")
	}
	return t
}

func isRule(s string) bool {
	var c byte
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t':
		case '-', '*', '_':
			if c != 0 && s[i] != c {
				return false
			}
			c = s[i]
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// listMarker returns the marker a list item starts with ("-", "12.") and the bytes it takes
// with the space after it, or n == 0.
func listMarker(s string) (string, int) {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return s[:1], 2
	}
	d := 0
	for d < len(s) && d < 9 && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d > 0 && d+1 < len(s) && (s[d] == '.' || s[d] == ')') && s[d+1] == ' ' {
		return s[:d+1], d + 2
	}
	return "", 0
}

// fenceRule is what a code block's closing fence is drawn as.
const fenceRule = "───"

// openingRule is what a code block's opening fence is drawn as: the rule and the block's
// language as its info string names it (its first word, at most maxLangLabel cells).
func openingRule(info string) string {
	words := strings.Fields(info)
	if len(words) == 0 {
		return fenceRule
	}
	return fenceRule + " " + ansi.Truncate(words[0], maxLangLabel, "…")
}

// maxLangLabel bounds the language named on a code block's opening rule.
const maxLangLabel = 24

// fenceRun returns the fence character and run length s starts with, and the rest (the info
// string), or n == 0.
func fenceRun(s string) (c byte, n int, rest string) {
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return 0, 0, ""
	}
	c = s[0]
	for n < len(s) && s[n] == c {
		n++
	}
	return c, n, s[n:]
}
