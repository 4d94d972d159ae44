package view

import (
	"strconv"
	"strings"
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// counterNote is what the status line adds while a turn runs: its time so far and its
// tokens, "~" marking a count estimated from the bytes streamed ("   12s · ~340 tokens").
func counterNote(t Timing) string {
	if t.Elapsed < time.Second {
		return ""
	}
	s := "   " + strconv.Itoa(int(t.Elapsed/time.Second)) + "s"
	if t.Tokens > 0 {
		approx := ""
		if t.Estimated {
			approx = "~"
		}
		s += " · " + approx + format.Thousands(t.Tokens) + " " + format.Plural(t.Tokens, "token", "tokens")
	}
	return s
}

// tallyText is a finished turn's tally in one line, its parts joined by " · ": the model, the
// time, the tokens in (cached among them) and out (reasoning among them), the cost. A part
// that is not known is left out; "" when nothing but the model is known.
func tallyText(t transcript.Tally) string {
	var parts []string
	if t.Duration > 0 {
		parts = append(parts, format.Duration(t.Duration))
	}
	if t.Prompt > 0 || t.Completion > 0 {
		in := format.Thousands(t.Prompt) + " in"
		if t.Cached > 0 {
			in += " (" + format.Thousands(t.Cached) + " cached)"
		}
		out := format.Thousands(t.Completion) + " out"
		if t.Reasoning > 0 {
			out += " (" + format.Thousands(t.Reasoning) + " reasoning)"
		}
		parts = append(parts, in, out)
	}
	if t.Priced {
		parts = append(parts, budget.Dollars(t.Cost))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(append([]string{safe.Line(t.Model)}, parts...), " · ")
}

// renderTally draws the tally of the turn a reply ended, dim, under the reply and its mark.
func renderTally(e *transcript.Entry, st *theme, w int) rows.Lines {
	t, ok := e.Tally()
	if !ok {
		return rows.Lines{}
	}
	text := tallyText(t)
	if text == "" {
		return rows.Lines{}
	}
	var b rows.Builder
	rows.WrapInto(&b, text, w, markIndent, markIndent, func(s string) string { return st.Note.Paint(s) })
	return b.Compact()
}
