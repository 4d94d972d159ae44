// Package view renders the chat screen: a pure function of a Frame, except for the caches the
// Renderer keeps to make the next frame cheap. It draws; it never handles input and never
// imports Bubble Tea. It reads the transcript (phase/transcript) and never changes it: each
// entry's version, which only the transcript bumps, keys the entry's cached lines.
//
// Layout, top to bottom: the transcript, a rule, the status line(s) with the Stop or Retry
// control at the right of the last one, the composer's label, the composer, the help line and
// the footer. Rows are given out bottom-up by priority, so small terminals keep the status,
// the composer and a line of transcript first.
//
// Every untrusted string (replies, reasoning, tool names, arguments, results, error notes)
// passes view/safe before it is laid out, applied to the accumulated string; markdown passes
// the markdown renderer (mddoc.go), which draws no escape but its palette's SGR, and none at
// all with PlainStyles.
package view

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/markdown"
	"github.com/phasechat/phasechat/view/rows"
)

// Renderer draws Frames. It keeps each entry's rendered lines between frames (see
// transcript), so it is not safe for concurrent use; one Renderer serves one screen.
type Renderer struct {
	st      *theme
	measure int // the widest a reply's text is drawn
	tr      transcriptCache
	chrome  chrome
}

// Option changes how a Renderer draws.
type Option func(*Renderer)

// WithMeasure caps the width of a reply's prose, tables and code at n cells (at most the
// screen's width; 0 or less keeps the default, 100).
func WithMeasure(n int) Option {
	return func(r *Renderer) {
		if n > 0 {
			r.measure = n
		}
	}
}

// NewRenderer returns a Renderer drawing with st.
func NewRenderer(st Styles, opts ...Option) *Renderer {
	r := &Renderer{st: newTheme(st), measure: markdown.DefaultMeasure}
	for _, o := range opts {
		o(r)
	}
	r.tr = transcriptCache{pen: pen{st: r.st}, budget: defaultCacheBudget}
	return r
}

// SetStyles draws with st from the next frame on. Every line the Renderer keeps was drawn in
// the old styles, so all of them are dropped and drawn again as they are next needed.
func (r *Renderer) SetStyles(st Styles) {
	r.st = newTheme(st)
	r.chrome = chrome{}
	r.tr.restyle(r.st)
}

// layout is how many rows each part of the screen gets.
type layout struct {
	transcript, rule, status, queue, label, composer, help, footer int
}

// plan gives out height rows in priority order: one each for the status and the composer, the
// rest of the status (the status line's message gives way last), one for the transcript, then
// the footer, the help line, the label and the queue's row (when queued), then the rest of the
// composer, then the rule; the transcript takes what is left.
func plan(height, composerRows, statusRows int, queued bool) layout {
	left := max(0, height)
	take := func(n int) int {
		n = max(0, min(n, left))
		left -= n
		return n
	}
	var l layout
	l.status = take(1)
	l.composer = take(1)
	l.status += take(statusRows - 1)
	l.transcript = take(1)
	l.footer = take(1)
	l.help = take(1)
	l.label = take(1)
	if queued {
		l.queue = take(1)
	}
	l.composer += take(composerRows - 1)
	l.rule = take(1)
	l.transcript += left
	return l
}

// Layout is where f's transcript stands without drawing the screen: the rows the transcript
// area has and the largest useful ScrollUp, taken from the line counts the Renderer's cache
// keeps (it measures, and caches, only the entries from the tail up to the window). Render of
// the same frame reports the same two numbers.
func (r *Renderer) Layout(f Frame) (transcriptHeight, maxScroll int) {
	width, height := max(1, f.Width), max(0, f.Height)
	statusMax := maxStatusLines + 1 // the text and, when it needs one, the control's own row
	probe := r.chrome.statusBlock(r.st, f.State, note{f.Note, f.NoteError}, f.Focus, f.Timing, queueNote(len(f.Queued), f.QueueWaits), width, statusMax)
	l := plan(height, strings.Count(f.Composer, "\n")+1, len(probe.rows), len(f.Queued) > 0)
	r.setWidth(width)
	acc, _ := r.tr.measureTail(f.Entries, max(0, f.ScrollUp)+l.transcript, max(0, f.ScrollUp))
	r.tr.evict()
	if f.Fit {
		l.transcript = min(l.transcript, r.fitRows(f, acc, width))
	}
	return l.transcript, max(0, r.tr.total-l.transcript)
}

// fitRows is how tall a Fit transcript area is whose entries take acc rows: as tall as they
// are, or as the key overlay or the first screen drawn there.
func (r *Renderer) fitRows(f Frame, acc, width int) int {
	switch {
	case f.Keys != nil:
		return max(acc, keysHeight(r.st, f.Keys, width))
	case f.Welcome != nil:
		n := len(renderWelcome(r.st, *f.Welcome, f.Footer, width))
		if acc > 0 {
			n += 1 + acc
		}
		return n
	}
	return acc
}

// Render draws f. Content has exactly f.Height rows (at most that with f.Fit), none wider than
// f.Width.
func (r *Renderer) Render(f Frame) Screen {
	width, height := max(1, f.Width), max(0, f.Height)
	st := r.st
	ctl := phase.ControlsFor(f.State.Phase)
	focus := f.Focus // decided by phase.FocusFor; drawn as given

	composerLines := strings.Count(f.Composer, "\n") + 1
	statusMax := maxStatusLines + 1 // the text and, when it needs one, the control's own row
	queue := queueNote(len(f.Queued), f.QueueWaits)
	probe := r.chrome.statusBlock(st, f.State, note{f.Note, f.NoteError}, focus, f.Timing, queue, width, statusMax)
	l := plan(height, composerLines, len(probe.rows), len(f.Queued) > 0)
	status := probe
	switch {
	case l.status == 0:
		status = statusBlock{}
	case l.status < len(probe.rows):
		status = r.chrome.statusBlock(st, f.State, note{f.Note, f.NoteError}, focus, f.Timing, queue, width, l.status)
	}

	r.setWidth(width)
	if f.Fit {
		acc, _ := r.tr.measureTail(f.Entries, l.transcript, 0)
		l.transcript = min(l.transcript, r.fitRows(f, acc, width))
	}
	out := make([]string, 0, height)
	transcript, maxScroll := r.tr.window(f.Entries, f.ScrollUp, l.transcript)
	switch {
	case f.Keys != nil:
		transcript = renderKeys(st, f.Keys, width, l.transcript)
	case f.Welcome != nil:
		transcript = withWelcome(st, f, transcript, width, l.transcript)
	}
	out = append(out, transcript...)
	for len(out) < l.transcript {
		out = append(out, "")
	}
	below := min(max(0, f.ScrollUp), maxScroll)
	switch {
	case l.rule > 0 && below > 0:
		out = append(out, scrolledRule(st, below, f.FollowKey, width))
	case l.rule > 0:
		out = append(out, st.Rule.Paint(strings.Repeat("─", width)))
	case below > 0 && len(out) > 0:
		out[len(out)-1] = scrolledRule(st, below, f.FollowKey, width)
	}
	statusTop := len(out)
	out = append(out, status.rows...)
	if l.label > 0 {
		out = append(out, composerLabel(st, ctl.Composer, f.Draft, f.Attached, width))
	}
	if l.queue > 0 {
		out = append(out, queueRow(st, f.Queued, f.QueueWaits, width))
	}
	composerTop := len(out)
	comp, compFirst := r.chrome.composer(st, f.Composer, ctl.Composer, width, l.composer, f.ComposerCursorY)
	out = append(out, comp...)
	if l.help > 0 {
		out = append(out, r.chrome.helpRow(st, f.Help, width))
	}
	if l.footer > 0 {
		out = append(out, r.chrome.footerRow(st, f.Footer, width))
	}

	if width < 2 { // a one-cell screen cannot show a wide character: cut what cannot fit
		for i, row := range out {
			out[i] = rows.TrimStyledEnd(ansi.Truncate(row, width, ""))
		}
	}
	scr := Screen{Content: strings.Join(out, "\n"), TranscriptHeight: l.transcript, MaxScroll: maxScroll}
	switch {
	case focus != phase.FocusComposer && status.hasCtl && status.focused:
		scr.Cursor, scr.CursorX, scr.CursorY = true, status.ctlCol, statusTop+status.ctlRow
	case focus == phase.FocusComposer && f.ComposerCursor:
		y := f.ComposerCursorY - compFirst
		if y >= 0 && y < len(comp) {
			scr.Cursor = true
			scr.CursorX, scr.CursorY = min(max(0, f.ComposerCursorX), width-1), composerTop+y
		}
	}
	return scr
}

// setWidth prepares the markdown renderer and the transcript for width.
func (r *Renderer) setWidth(width int) {
	if r.tr.pen.md != nil && r.tr.pen.md.Width == width {
		return
	}
	r.tr.pen.md = markdown.NewRenderer(r.st.Markdown, width, r.measure)
	r.tr.setWidth(width)
}
