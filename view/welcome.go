package view

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// Welcome is the first screen: drawn in the transcript area until the conversation starts,
// never part of the transcript (so never sent to the model). It says what this is and what
// answers, the endpoint's host and the model from the Frame's Footer (never user info, a path
// or a key), and on the built-in demo what to try.
type Welcome struct {
	Try []Try // on the demo: prompts it answers, and what each shows
}

// Try is a prompt to try and what it shows.
type Try struct{ Prompt, Shows string }

// renderWelcome is the first screen's rows, cut to width. What matters most comes first
// (what this is, what answers), so a short window that keeps only the first rows still says
// it.
func renderWelcome(st *theme, w Welcome, footer Footer, width int) []string {
	const indent = "  "
	out := []string{""}
	line := func(k rows.Ink, s string) { out = append(out, rows.TrimStyledEnd(k.Paint(rows.Fit(indent+s, width)))) }
	para := func(k rows.Ink, s string) {
		for _, l := range rows.WrapLines(s, max(1, width-len(indent))) {
			line(k, l)
		}
	}
	line(st.HelpKey, "phasechat — a terminal chat for streaming chat APIs")
	out = append(out, "")
	host, model, wire := safe.Line(format.Host(footer.Endpoint)), safe.Line(footer.Model), safe.Line(footer.Wire)
	if footer.Demo {
		para(st.Status, "The built-in demo answers: a scripted model on "+host+", so nothing leaves this machine. "+
			"For a real model, set OPENAI_API_KEY or pass --base-url.")
	} else {
		if wire != "" {
			host += " · " + wire
		}
		line(st.Status, "Endpoint  "+host)
		line(st.Status, "Model     "+model)
	}
	if len(w.Try) > 0 {
		out = append(out, "")
		line(st.Status, "Things to try:")
		col := 0
		for _, t := range w.Try {
			col = max(col, ansi.StringWidth(safe.Line(t.Prompt)))
		}
		for _, t := range w.Try {
			p := safe.Line(t.Prompt)
			line(st.Note, "  › "+p+strings.Repeat(" ", col-ansi.StringWidth(p)+3)+safe.Line(t.Shows))
		}
	}
	out = append(out, "")
	para(st.Note, "Type a message below and press Enter. ? or F1 lists every key.")
	return out
}

// withWelcome puts the first screen above rows (the transcript so far: notices), in a window
// height rows tall; the transcript keeps its rows first.
func withWelcome(st *theme, f Frame, rows []string, width, height int) []string {
	room := height - len(rows)
	if len(rows) > 0 {
		room-- // a blank row between the two
	}
	if room <= 0 {
		return rows
	}
	w := renderWelcome(st, *f.Welcome, f.Footer, width)
	w = w[:min(len(w), room)]
	if len(rows) > 0 {
		w = append(w, "")
	}
	return append(w, rows...)
}
