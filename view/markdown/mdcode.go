package markdown

import (
	"strings"
	"sync"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// codeLang is how one language's code is highlighted, a line at a time: words, comments,
// strings and numbers, with a block comment or a multi-line string carried to the next line
// (codeState), so a block is never highlighted again as it grows.
type codeLang struct {
	keywords, types map[string]bool
	line            []string // line comment openers
	blockOpen       string   // block comment, "" for none
	blockClose      string
	quotes          string   // single-line string quotes
	multi           []string // multi-line string delimiters, longest first
	rawMulti        bool     // backslashes do not escape inside multi-line strings
	diff            bool     // colour whole lines by their first byte
	// dashed: "-" joins a word ("gpt-4o-mini", "--max-tokens"), so digits after a dash inside
	// a word are part of it, not a number.
	dashed bool
}

// codeState is the highlighter's state between two units of a code line; at a line's end,
// what it leaves open for the next line.
type codeState struct {
	comment bool   // inside a block comment
	str     string // inside a multi-line string ended by this delimiter
	quote   byte   // inside a single-line string (ends at the line's end)
	line    bool   // inside a line comment (ends at the line's end)
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// codeLangs is built on the first fenced block, not at start-up.
var codeLangs = sync.OnceValue(func() map[string]*codeLang {
	cFamily := func(kw, ty string) *codeLang {
		return &codeLang{keywords: words(kw), types: words(ty), line: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: `"'`}
	}
	golang := cFamily("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota",
		"bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any")
	golang.multi, golang.rawMulti = []string{"`"}, true
	js := cFamily("async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return super switch this throw try typeof var void while with yield null undefined true false interface type enum implements private public protected readonly as",
		"string number boolean any unknown never object")
	js.multi = []string{"`"}
	python := &codeLang{keywords: words("and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield None True False match case"),
		types: words("int float str bool list dict set tuple bytes object self"), line: []string{"#"}, quotes: `"'`, multi: []string{`"""`, `'''`}}
	shell := &codeLang{keywords: words("if then else elif fi for while until do done case esac in function return export local readonly set unset echo cd exit source"),
		types: map[string]bool{}, line: []string{"#"}, quotes: `"'`, dashed: true}
	rust := cFamily("as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while",
		"i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str String Vec Option Result Box")
	c := cFamily("auto break case const continue default do else enum extern for goto if inline register return sizeof static struct switch typedef union volatile while class namespace template typename public private protected virtual override new delete this true false nullptr using try catch throw",
		"void char short int long float double signed unsigned bool size_t std string vector auto")
	java := cFamily("abstract break case catch class continue default do else enum extends final finally for if implements import instanceof interface new package private protected public return static super switch this throw throws try while true false null var val fun when object override is as in",
		"boolean byte char double float int long short void String Integer List Map")
	java.multi = []string{`"""`}
	csharp := cFamily("abstract as async await base break case catch class const continue default delegate do else enum event explicit extern false finally fixed for foreach if implicit in interface internal is lock namespace new null operator out override params private protected public readonly ref return sealed sizeof static struct switch this throw true try typeof using virtual while var",
		"bool byte char decimal double float int long object sbyte short string uint ulong ushort void")
	swift := cFamily("associatedtype class deinit enum extension func import init inout let operator protocol static struct subscript typealias var break case continue default defer do else fallthrough for guard if in repeat return switch where while as catch false is nil self super throw throws true try",
		"Int Double Float String Bool Character Array Dictionary Void")
	swift.multi = []string{`"""`}
	ruby := &codeLang{keywords: words("begin end def class module if elsif else unless while until for in do return yield then case when break next redo retry self nil true false and or not require attr_accessor puts"),
		types: map[string]bool{}, line: []string{"#"}, quotes: `"'`}
	json := &codeLang{keywords: words("true false null"), types: map[string]bool{}, quotes: `"`}
	yaml := &codeLang{keywords: words("true false null yes no on off"), types: map[string]bool{}, line: []string{"#"}, quotes: `"'`}
	sql := &codeLang{keywords: words("select from where and or not insert into values update set delete create table drop alter index join left right inner outer on group by order having limit offset as distinct union all primary key foreign references null is in like between case when then else end SELECT FROM WHERE AND OR NOT INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE DROP ALTER INDEX JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT OFFSET AS DISTINCT UNION ALL PRIMARY KEY FOREIGN REFERENCES NULL IS IN LIKE BETWEEN CASE WHEN THEN ELSE END"),
		types: words("int integer text varchar char boolean date timestamp serial bigint INT INTEGER TEXT VARCHAR CHAR BOOLEAN DATE TIMESTAMP SERIAL BIGINT"), line: []string{"--"}, blockOpen: "/*", blockClose: "*/", quotes: `'"`}
	lua := &codeLang{keywords: words("and break do else elseif end false for function goto if in local nil not or repeat return then true until while"), types: map[string]bool{}, line: []string{"--"}, quotes: `"'`}
	markup := &codeLang{keywords: map[string]bool{}, types: map[string]bool{}, blockOpen: "<!--", blockClose: "-->", quotes: `"'`}
	css := &codeLang{keywords: words("important inherit initial none auto"), types: map[string]bool{}, blockOpen: "/*", blockClose: "*/", quotes: `"'`}
	toml := &codeLang{keywords: words("true false"), types: map[string]bool{}, line: []string{"#"}, quotes: `"'`, multi: []string{`"""`, `'''`}}
	php := cFamily("abstract and array as break case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for foreach function global if implements include instanceof interface isset list namespace new or print private protected public require return static switch throw trait try unset use var while yield true false null",
		"int float string bool array object")
	php.line = []string{"//", "#"}
	diff := &codeLang{keywords: map[string]bool{}, types: map[string]bool{}, diff: true}
	langs := map[string]*codeLang{}
	for names, l := range map[string]*codeLang{
		"go golang": golang, "js javascript jsx ts typescript tsx mjs cjs": js, "py python python3": python,
		"sh bash shell zsh console fish ksh": shell, "rs rust": rust, "c h cpp c++ cc hpp cxx objc": c,
		"java kotlin kt scala groovy dart": java, "cs csharp c#": csharp, "swift": swift, "rb ruby": ruby,
		"json jsonc json5": json, "yaml yml": yaml, "sql mysql postgresql postgres sqlite": sql, "lua": lua,
		"html xml svg vue": markup, "css scss less": css, "toml ini": toml, "php": php, "diff patch": diff,
	} {
		for _, n := range strings.Fields(names) {
			langs[n] = l
		}
	}
	return langs
})

// lookupLang returns the highlighting for a fence's info string ("go", "python title=x"), or
// nil for none or an unknown language: such code is drawn plain.
func lookupLang(info string) *codeLang {
	f := strings.Fields(info)
	if len(f) == 0 {
		return nil
	}
	name := strings.ToLower(strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(f[0], "{"), "}"), "."))
	return codeLangs()[name]
}

// highlight draws one code line (clean text) in the state the line before left, and returns
// the state it leaves.
func highlight(l *codeLang, s string, st codeState) ([]cell, codeState) {
	h := highlighter{l: l, st: st}
	h.run(s, 0)
	return h.out, h.st
}

// highlighter draws code a unit at a time (a word, a number, a delimiter, a grapheme of a
// comment or a string). Before each unit at least maxLookahead bytes from the end it notes
// where it is (safe): every decision before there read only bytes already present (a unit
// looks at most maxLookahead bytes ahead to tell "/" from "//", "\"" from "\"\"\""), so from
// there, in that state, a growing line draws the same: it is drawn from there on.
type highlighter struct {
	l         *codeLang
	st        codeState
	out       []cell
	safe      int // offset of the last unit's start
	safeCells int // len(out) there
	safeSt    codeState
}

func (h *highlighter) add(t string, style mdStyle) { h.out = appendCells(h.out, t, style) }

// maxLookahead is the longest delimiter a unit looks for ("<!--").
const maxLookahead = 4

func (h *highlighter) note(s string, i int) {
	if i <= len(s)-maxLookahead {
		h.safe, h.safeCells, h.safeSt = i, len(h.out), h.st
	}
}

func (h *highlighter) run(s string, i int) {
	l, st := h.l, &h.st
	for i < len(s) {
		h.note(s, i)
		if l == nil || l.diff {
			var style mdStyle
			if l != nil {
				switch {
				case strings.HasPrefix(s, "+++") || strings.HasPrefix(s, "---") || strings.HasPrefix(s, "@@"):
					style = mdHunk
				case strings.HasPrefix(s, "+"):
					style = mdInserted
				case strings.HasPrefix(s, "-"):
					style = mdDeleted
				}
			}
			i = h.grapheme(s, i, style)
			continue
		}
		switch {
		case st.comment:
			if strings.HasPrefix(s[i:], l.blockClose) {
				h.add(l.blockClose, mdComment)
				i += len(l.blockClose)
				st.comment = false
				continue
			}
			i = h.grapheme(s, i, mdComment)
			continue
		case st.str != "" || st.quote != 0:
			end := st.str
			if st.quote != 0 {
				end = string(st.quote)
			}
			if s[i] == '\\' && (st.quote != 0 || !l.rawMulti) && i+1 < len(s) {
				h.add(s[i:i+1], mdString)
				i = h.grapheme(s, i+1, mdString)
				continue
			}
			if strings.HasPrefix(s[i:], end) {
				h.add(end, mdString)
				i += len(end)
				st.str, st.quote = "", 0
				continue
			}
			i = h.grapheme(s, i, mdString)
			continue
		}
		if st.line {
			i = h.grapheme(s, i, mdComment)
			continue
		}
		rest := s[i:]
		if p := prefixOf(rest, l.line); p != "" {
			h.add(p, mdComment)
			i += len(p)
			st.line = true
			continue
		}
		if l.blockOpen != "" && strings.HasPrefix(rest, l.blockOpen) {
			h.add(l.blockOpen, mdComment)
			i += len(l.blockOpen)
			st.comment = true
			continue
		}
		if d := prefixOf(rest, l.multi); d != "" {
			h.add(d, mdString)
			i += len(d)
			st.str = d
			continue
		}
		c := s[i]
		switch {
		case strings.IndexByte(l.quotes, c) >= 0:
			h.add(s[i:i+1], mdString)
			i++
			st.quote = c
		case c >= '0' && c <= '9' && !(l.dashed && i >= 2 && s[i-1] == '-' && (isAlnum(s[i-2]) || s[i-2] == '_')):
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_' || s[j] == '.') {
				j++
			}
			h.add(s[i:j], mdNumber)
			i = j
		case isAlnum(c) || c == '_':
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_') {
				j++
			}
			var style mdStyle
			switch w := s[i:j]; {
			case l.keywords[w]:
				style = mdKeyword
			case l.types[w]:
				style = mdType
			}
			h.add(s[i:j], style)
			i = j
		default:
			i = h.grapheme(s, i, 0)
		}
	}
	st.quote, st.line = 0, false // a single-line string or comment ends with its line
}

// grapheme draws the grapheme at s[i] (a character reference to a control as its stand-in)
// and returns the offset after it.
func (h *highlighter) grapheme(s string, i int, style mdStyle) int {
	if s[i] == '&' {
		if r, n := charRef(s[i:]); n > 0 && safe.Text(string(r)) != string(r) {
			h.add(safe.Text(string(r)), style)
			return i + n
		}
	}
	if s[i] == '\t' {
		h.add(rows.TabSpaces, style)
		return i + 1
	}
	g := graphemeAt(s[i:])
	h.out = append(h.out, cellOf(g, style))
	return i + len(g)
}

func prefixOf(s string, ps []string) string {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}
