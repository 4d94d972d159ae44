package view

import (
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/markdown"
	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

const (
	userPrefix      = "› "
	noticePrefix    = "· "
	reasoningIndent = "    "
	markIndent      = "  "
	maxNoteLines    = 40   // lines of a note shown under a reply before "… N more lines"
	focusMark       = "▶ " // in place of the indent before the focused card or prompt
)

// foldedPaste is the one line a folded prompt of n lines and size bytes is shown as; the size
// is said when the lines are few (it was folded for its size).
func foldedPaste(n, size int) string {
	what := format.Thousands(n) + " " + format.Plural(n, "line", "lines")
	if n <= transcript.FoldLines {
		what += " · " + formatSize(size)
	}
	return "[pasted " + what + " · ctrl+o to expand]"
}

// blankLine separates the sections of an entry (reasoning, text, cards, mark).
var blankLine = rows.Of("")

// pen is what entries are drawn with: the theme, and the markdown renderer at the width
// they are drawn at.
type pen struct {
	st *theme
	md *markdown.Renderer
}

// entryView is an entry's rendering at one width and what makes the next one cheap: the
// markdown document, the reasoning's wrap and character count, each card's and the mark's
// lines. segs is the entry's lines, in order, as runs that are never copied into one.
type entryView struct {
	width int
	segs  []rows.Lines

	text       rows.Lines // user or notice text
	files      rows.Lines // an expanded prompt's files
	textSrc    string     // the text it was rendered from
	textRole   transcript.Role
	textFolded bool
	textFocus  bool
	textOpen   bool            // the prompt's files were drawn (it is expanded)
	md         []*markdown.Doc // one markdown document per text part, in order
	reasoning  reasoningView
	cards      []cardCache
	mark       markCache
	// partRow is the row each of the entry's parts starts at, by part index; a card's rows
	// run to the next part's (or the mark's) start, for scrolling a card into view.
	partRow []int
	partEnd []int
	drawn   int        // lines in segs so far, while a render assembles them
	mdRuns  []textRuns // what each text part's document drew last, by text part
}

// textRuns is a text part's lines as last drawn and what they were drawn from.
type textRuns struct {
	src      string
	live, ok bool
	runs     []rows.Lines
}

// cardCache is a card's drawing and the card's Rev and focus it was drawn at.
type cardCache struct {
	rev     uint64
	focused bool
	out     rows.Lines
}

type markCache struct {
	mark transcript.Mark
	note string
	out  rows.Lines
	ok   bool
}

// height is the entry's line count.
func (v *entryView) height() int {
	n := 0
	for _, s := range v.segs {
		n += s.Len()
	}
	return n
}

// size is the memory the view holds, for the cache budget: its own structure and the lines
// it draws (runs shared between segs and the sub-caches are counted once, through segs).
func (v *entryView) size() int {
	n := int(unsafe.Sizeof(*v)) + cap(v.segs)*int(unsafe.Sizeof(rows.Lines{})) + cap(v.cards)*int(unsafe.Sizeof(cardCache{}))
	n += len(v.md) * int(unsafe.Sizeof(markdown.Doc{}))
	for _, s := range v.segs {
		n += s.Size()
	}
	return n
}

// render brings the view up to e at md's width. Sub-renders are reused when their input is
// unchanged: string comparisons are O(1) while the model keeps the same storage, and the
// markdown and reasoning are incremental, so a token appended to a streaming reply costs
// the open tail only.
func (v *entryView) render(e *transcript.Entry, p pen) {
	st, md := p.st, p.md
	w := md.Width
	if v.width != w {
		// The markdown documents keep their measures: another width counts their lines.
		*v = entryView{width: w, md: v.md, mdRuns: make([]textRuns, len(v.md))}
	}
	v.segs, v.drawn = v.segs[:0], 0
	switch e.Role() {
	case transcript.RoleUser, transcript.RoleNotice:
		open := e.Expanded() && len(e.Files()) > 0
		if v.text.Len() == 0 || v.textSrc != e.Text() || v.textRole != e.Role() || v.textFolded != e.Folded() || v.textFocus != e.Focused() || v.textOpen != open {
			v.textSrc, v.textRole, v.textFolded, v.textFocus, v.textOpen = e.Text(), e.Role(), e.Folded(), e.Focused(), open
			prefix := st.User.Paint(userPrefix)
			if e.Focused() {
				prefix = st.User.Paint(focusMark)
			}
			switch {
			case e.Role() == transcript.RoleUser && e.Folded():
				v.text = rows.WrapText(foldedPaste(e.Lines(), len(e.Text())), w, prefix, "  ", func(s string) string { return st.CardDetail.Paint(s) })
			case e.Role() == transcript.RoleUser:
				v.text = rows.WrapText(safe.Text(e.Text()), w, prefix, "  ", nil)
			default:
				v.text = rows.WrapText(safe.Text(e.Text()), w, noticePrefix, "  ", func(s string) string { return st.Notice.Paint(s) })
			}
			v.files = rows.Lines{}
			if open {
				v.files = promptFiles(e.Files(), st, w)
			}
		}
		v.segs = append(v.segs, v.text)
		if v.files.Len() > 0 {
			v.segs = append(v.segs, v.files)
		}
		return
	}
	section := func(ls ...rows.Lines) {
		empty := true
		for _, l := range ls {
			empty = empty && l.Len() == 0
		}
		if empty {
			return
		}
		if len(v.segs) > 0 {
			v.segs = append(v.segs, blankLine)
			v.drawn++
		}
		v.segs = append(v.segs, ls...)
		for _, l := range ls {
			v.drawn += l.Len()
		}
	}
	if e.Reasoning() != "" {
		section(v.reasoning.render(e, st, w)...)
	}
	v.renderParts(e, st, md, section)
	section(v.renderMark(e, st, w))
	section(renderTally(e, st, w))
	if len(v.segs) == 0 {
		word := "(empty reply)"
		if e.Streaming() {
			word = "…"
		}
		v.segs = append(v.segs, rows.Of(markIndent+st.Note.Paint(word)))
	}
	// Runs of the last render past this one's (a streaming reply's open part) are let go.
	clear(v.segs[len(v.segs):cap(v.segs)])
}

// renderParts draws the reply's parts in order: each text part is a markdown document of its
// own (only the last one may still be streaming), and a run of cards is one section. It keeps
// where each part starts (partRow) for scrolling a card into view.
func (v *entryView) renderParts(e *transcript.Entry, st *theme, md *markdown.Renderer, section func(...rows.Lines)) {
	parts, cards := e.Parts(), e.Cards()
	if len(v.cards) > len(cards) {
		v.cards = v.cards[:len(cards)]
	}
	for len(v.cards) < len(cards) {
		v.cards = append(v.cards, cardCache{})
	}
	v.partRow, v.partEnd = v.partRow[:0], v.partEnd[:0]
	texts := 0
	var run []rows.Lines // the cards of the current run
	var runParts []int
	flush := func() {
		if len(run) == 0 {
			return
		}
		row := v.drawn
		if len(v.segs) > 0 {
			row++ // the blank line section puts above
		}
		section(run...)
		for j, i := range runParts {
			v.partRow[i] = row
			row += run[j].Len()
			v.partEnd[i] = row
		}
		run, runParts = run[:0], runParts[:0]
	}
	for i, p := range parts {
		v.partRow, v.partEnd = append(v.partRow, 0), append(v.partEnd, 0)
		if p.IsCard() {
			run = append(run, v.renderCard(e, p.Card(), st, md.Width))
			runParts = append(runParts, i)
			continue
		}
		flush()
		if texts == len(v.md) {
			v.md = append(v.md, &markdown.Doc{})
			v.mdRuns = append(v.mdRuns, textRuns{})
		}
		src, live := e.PartText(p), e.Streaming() && i == len(parts)-1
		memo := &v.mdRuns[texts]
		if live || !memo.ok || memo.live || memo.src != src {
			// A finished part that did not change keeps its lines: a token costs the open part.
			memo.runs = append(memo.runs[:0], v.md[texts].Update(md, src, live)...)
			clear(memo.runs[len(memo.runs):cap(memo.runs)]) // a finished part holds no open drawing
			memo.src, memo.live, memo.ok = src, live, true
		}
		runs := memo.runs
		texts++
		v.partRow[i] = v.drawn
		section(runs...)
		v.partEnd[i] = v.drawn
	}
	flush()
	v.md, v.mdRuns = v.md[:texts], v.mdRuns[:texts]
}

// renderCard draws card i of e, reusing the last drawing while the card is unchanged.
func (v *entryView) renderCard(e *transcript.Entry, i int, st *theme, w int) rows.Lines {
	c, focused := e.Cards()[i], e.FocusedCard() == i
	if cc := &v.cards[i]; cc.out.Len() == 0 || cc.rev != c.Rev() || cc.focused != focused {
		cc.rev, cc.focused, cc.out = c.Rev(), focused, renderCard(st, c, focused, w)
	}
	return v.cards[i].out
}

// cardRows is where card i of e was drawn: its first row and the row after its last, counted
// from the entry's first line; ok is false when it was not drawn.
func (v *entryView) cardRows(e *transcript.Entry, card int) (from, to int, ok bool) {
	for i, p := range e.Parts() {
		if p.Card() == card && i < len(v.partRow) && v.partEnd[i] > v.partRow[i] {
			return v.partRow[i], v.partEnd[i], true
		}
	}
	return 0, 0, false
}

// renderMark draws how a reply ended: "■ Stopped — …" or "✗ <why>", and any note under it.
func (v *entryView) renderMark(e *transcript.Entry, st *theme, w int) rows.Lines {
	if e.Mark() == transcript.MarkNone && e.Note() == "" {
		return rows.Lines{}
	}
	if v.mark.ok && v.mark.mark == e.Mark() && v.mark.note == e.Note() {
		return v.mark.out
	}
	var b rows.Builder
	note := strings.TrimSpace(safe.Text(e.Note()))
	stopped := func(s string) string { return st.Stopped.Paint(s) }
	failed := func(s string) string { return st.Failed.Paint(s) }
	dim := func(s string) string { return st.Note.Paint(s) }
	switch e.Mark() {
	case transcript.MarkStopped:
		rows.WrapInto(&b, "■ Stopped — the partial reply is kept.", w, markIndent, markIndent, stopped)
		if note != "" {
			rows.WrapInto(&b, note, w, markIndent+"  ", markIndent+"  ", dim)
		}
	case transcript.MarkFailed:
		if note == "" {
			note = "The reply failed; the partial reply is kept."
		}
		rows.WrapInto(&b, note, w, markIndent+st.Failed.Paint("✗")+" ", markIndent+"  ", failed)
	case transcript.MarkCutOff:
		rows.WrapInto(&b, note, w, markIndent+st.Stopped.Paint("▲")+" ", markIndent+"  ", stopped)
	default:
		rows.WrapInto(&b, note, w, markIndent, markIndent, dim)
	}
	out := b.Compact()
	if out.Len() > maxNoteLines { // an error body can be 64 KiB: show its head
		var capped rows.Builder
		for i := range maxNoteLines {
			capped.Add(out.At(i))
		}
		n := out.Len() - maxNoteLines
		capped.Add(markIndent + "  " + st.Note.Paint(fmt.Sprintf("… %s more %s", format.Thousands(n), format.Plural(n, "line", "lines"))))
		out = capped.Compact()
	}
	v.mark = markCache{mark: e.Mark(), note: e.Note(), out: out, ok: true}
	return v.mark.out
}

// reasoningView draws an entry's reasoning: folded, a summary line ("▸ Reasoning · 1,234
// chars") and, while streaming, its newest line; unfolded, all of it wrapped and dimmed. The
// character count and the wrap are incremental over complete lines, like the reply's tail.
type reasoningView struct {
	src     string // the reasoning last counted; later text must extend it
	counted int    // src[:counted] (complete lines) holds runes characters
	runes   int
	wrap    rows.IncWrap
}

func (r *reasoningView) render(e *transcript.Entry, st *theme, w int) []rows.Lines {
	text := e.Reasoning()
	if len(text) < len(r.src) || !strings.HasPrefix(text, r.src) {
		r.counted, r.runes = 0, 0
	}
	r.src = text
	if last := strings.LastIndexByte(text[r.counted:], '\n'); last >= 0 {
		r.runes += utf8.RuneCountInString(text[r.counted : r.counted+last+1])
		r.counted += last + 1
	}
	chars := r.runes + utf8.RuneCountInString(text[r.counted:])
	dim := func(s string) string { return st.Reasoning.Paint(s) }
	glyph := "▸"
	if e.Expanded() {
		glyph = "▾"
	}
	head := rows.WrapText(glyph+" Reasoning · "+format.Thousands(chars)+" "+format.Plural(chars, "char", "chars"), w, markIndent, markIndent, dim)
	if e.Expanded() {
		complete, partial := r.wrap.Update(text, rows.WrapKey{Width: w, Indent: reasoningIndent}, dim)
		return []rows.Lines{head, complete, partial}
	}
	if !e.Streaming() {
		return []rows.Lines{head}
	}
	last := strings.TrimRight(text, " \n")
	last = safe.Line(last[strings.LastIndexByte(last, '\n')+1:])
	indent := reasoningIndent
	if w <= len(indent)+1 {
		indent = ""
	}
	for avail, cut := w-len(indent), 1; ansi.StringWidth(last) > avail; cut++ {
		last = ansi.TruncateLeft(last, ansi.StringWidth(last)-avail+cut, "…")
	}
	return []rows.Lines{head, rows.Of(strings.TrimRight(indent+dim(last), " "))}
}
