package view

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

const (
	cardIndent     = "  "   // where a card's header starts (the markdown margin)
	cardBodyIndent = "    " // its result, question and sections
	// maxExpandedLines bounds an expanded section (arguments can be megabytes); a result is
	// bounded by the tool output cap long before it.
	maxExpandedLines = 20000
	maxOutputLines   = 3 // lines of a running tool's output shown under its card
	maxNameCells     = 60
	maxSummaryCells  = 200
)

// askLine is the approval question; its keys are those model/chat's approval keys accept.
// askFirstLine says the same when more calls wait behind it.
const (
	askLine      = "Allow? y runs it · n declines · A always"
	askFirstLine = "Allow this one first? y runs it · n declines · A always"
)

// renderCard draws one tool call: a header (status glyph and word, name, then
// the argument size while pending or the summary once ready, and the duration when over),
// the approval question while Asking, and either the result's first line or, Expanded, the
// decoded arguments and the result in full up to maxExpandedLines each. Every untrusted field
// is sanitised whole before it is laid out: names and summaries with safe.Line, arguments
// after decoding, results as text.
func renderCard(st *theme, c transcript.Card, focused bool, width int) rows.Lines {
	var b rows.Builder
	glyph, word, look := cardLook(st, c.Status())
	place, of := c.AskPlace()
	switch {
	case c.Asking() && place > 1: // behind another question: y does not answer it yet
		glyph, word, look = "◌", fmt.Sprintf("waiting: %s of %s", format.Thousands(place), format.Thousands(of)), st.Pending
	case c.Asking() && of > 1:
		glyph, word, look = "?", fmt.Sprintf("waiting for approval: 1 of %s", format.Thousands(of)), st.Asking
	case c.Queued() > 0: // ready and allowed, waiting for a free slot; not started
		n := c.Queued()
		glyph, word, look = "◌", fmt.Sprintf("queued: %s %s running", format.Thousands(n), format.Plural(n, "tool", "tools")), st.Pending
	case stoppedByUser(c):
		glyph, word, look = "■", "stopped", st.Stopped
	}
	name := rows.Fit(safe.ToolName(c.Name()), maxNameCells)
	parts := []string{look.Paint(glyph + " " + word), st.CardName.Paint(name)}
	status := c.Status()
	over := status.Final()
	if status == phase.CallPending {
		parts = append(parts, st.CardDetail.Paint(receiving(c.ArgsBytes())))
	} else if s := rows.Fit(safe.Line(c.Summary()), maxSummaryCells); s != "" {
		parts = append(parts, st.CardDetail.Paint(s))
	}
	if over && c.Duration() > 0 {
		parts = append(parts, st.CardDetail.Paint(format.Duration(c.Duration())))
	}
	if c.Elapsed() >= time.Second {
		parts = append(parts, st.CardDetail.Paint(elapsedText(c.Elapsed())))
	}
	indent := cardIndent
	if focused {
		indent = st.CardName.Paint(focusMark)
	}
	for _, l := range rows.WrapStyled(indent+strings.Join(parts, " · "), width, cardBodyIndent) {
		b.Add(l)
	}
	if c.Asking() && place <= 1 {
		ask := askLine
		if of > 1 {
			ask = askFirstLine
		}
		for _, l := range rows.WrapStyled(cardBodyIndent+st.Asking.Paint(ask), width, cardBodyIndent) {
			b.Add(l)
		}
	}
	if c.Output() != "" {
		outputLines(&b, st, c.Output(), width)
	}
	failed := c.IsError() && !stoppedByUser(c)
	switch {
	case c.Expanded():
		if status != phase.CallPending {
			section(&b, st, "arguments:", c.Args(), width)
		}
		if over {
			title := "result:"
			if failed {
				title = "error:"
			}
			section(&b, st, title, c.Result(), width)
		}
	case c.Declined():
	case over:
		b.Add(resultLine(st, c.Result(), failed, width))
	}
	return rows.ClampWidth(b.Compact(), width)
}

// stoppedByUser reports whether the call ended because the user stopped the reply: shown as
// stopped, not as a failure.
func stoppedByUser(c transcript.Card) bool {
	call := c.Call()
	return call.Status == phase.CallInterrupted && call.Interruption.Why == phase.CutByUser
}

// cardLook is a status's glyph, word and style. A call whose arguments are ready looks
// running (it is handed over, asked about or queued at once); an interruption not by the
// user looks like an error.
func cardLook(st *theme, s phase.CallStatus) (glyph, word string, look rows.Ink) {
	switch s {
	case phase.CallPending:
		return "◌", "pending", st.Pending
	case phase.CallArgsReady, phase.CallRunning:
		return "◐", "running", st.Running
	case phase.CallAsking: // ready, but it has not run and may never run
		return "?", "waiting for approval", st.Asking
	case phase.CallQueued:
		return "◌", "queued", st.Pending
	case phase.CallDone:
		return "✓", "done", st.Done
	case phase.CallError, phase.CallInterrupted:
		return "✗", "error", st.Fail
	case phase.CallDeclined:
		return "○", "declined", st.Pending
	}
	return "•", rows.Fit(safe.Line(string(s)), 16), st.Pending
}

// elapsedText is a running tool's time so far, in whole seconds: "12s", "1m01s".
func elapsedText(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return format.Duration(d.Truncate(time.Second))
}

// outputLines draws the last maxOutputLines lines a running tool printed, each cut to one
// screen line, dimmed.
func outputLines(b *rows.Builder, st *theme, out string, width int) {
	shown := strings.Split(strings.TrimRight(rows.ExpandTabs(safe.Text(out)), "\n"), "\n")
	shown = shown[max(0, len(shown)-maxOutputLines):]
	indent := cardBodyIndent + "│ "
	for _, r := range shown {
		b.Add(indent + st.CardDetail.Paint(rows.Fit(strings.TrimRight(r, " \t"), max(1, width-ansi.StringWidth(indent)))))
	}
}

// receiving is what a pending card says about its arguments.
func receiving(n int) string {
	if n <= 0 {
		return "waiting for arguments…"
	}
	return "receiving arguments… " + formatSize(n)
}

// resultLine is a finished card's one-line result: its first non-blank line and how many
// lines follow.
func resultLine(st *theme, result string, failed bool, width int) string {
	first, more := format.FirstLine(result)
	suffix := ""
	if more > 0 {
		suffix = fmt.Sprintf(" (+%s more %s)", format.Thousands(more), format.Plural(more, "line", "lines"))
	}
	look := st.CardDetail
	if failed {
		look = st.Failed
	}
	if first == "" && more == 0 {
		return cardBodyIndent + look.Paint("→ (no output)")
	}
	avail := width - ansi.StringWidth(cardBodyIndent+"→ "+suffix)
	if avail < 8 {
		suffix, avail = "", width-ansi.StringWidth(cardBodyIndent+"→ ")
	}
	return cardBodyIndent + look.Paint("→ "+rows.Fit(safe.Line(first), avail)) + st.CardDetail.Paint(suffix)
}

// section draws a titled block of an expanded card: JSON is decoded and pretty-printed, then
// sanitised; other text is sanitised as is. At most maxExpandedLines screen lines are shown.
func section(b *rows.Builder, st *theme, title, text string, width int) {
	b.Add(cardBodyIndent + st.CardDetail.Paint(title))
	if p, ok := prettyJSON(text); ok {
		text = p
	}
	text = strings.TrimRight(safe.Text(text), "\n")
	if text == "" {
		b.Add(cardBodyIndent + "  " + st.CardDetail.Paint("(empty)"))
		return
	}
	indent := cardBodyIndent + "  "
	src := strings.Split(text, "\n")
	shown := 0
	for i, line := range src {
		w := rows.WrapText(line, width, indent, indent, nil)
		if shown+w.Len() > maxExpandedLines {
			if i == 0 {
				for j := range maxExpandedLines {
					b.Add(w.At(j))
				}
				i = 1
			}
			n := len(src) - i
			b.Add(indent + st.CardDetail.Paint(fmt.Sprintf("… %s more %s", format.Thousands(n), format.Plural(n, "line", "lines"))))
			return
		}
		b.AddAll(w)
		shown += w.Len()
	}
}

// formatSize is a byte count for people; a no-break space keeps the number with its unit.
func formatSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d\u00a0B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f\u00a0KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f\u00a0MiB", float64(n)/(1024*1024))
	}
}
