package view

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

const helpSep = " · "

// renderHelp is the help line: "esc stop · pgup/pgdn scroll · ctrl+c quit". When the keys do
// not all fit, the ones of highest rank are left off (see Key) and the rest keep their order;
// a single key too wide for the line is cut with "…".
func renderHelp(st *theme, keys []Key, width int) string {
	items := make([]string, len(keys))
	for i, k := range keys {
		items[i] = safe.Line(k.Keys)
		if k.Does != "" {
			items[i] += " " + safe.Line(k.Does)
		}
	}
	keep := helpFits(keys, items, width)
	var b strings.Builder
	for i, k := range keys {
		if !keep[i] {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(st.HelpDoes.Paint(helpSep))
		}
		if ansi.StringWidth(items[i]) > width {
			b.WriteString(st.HelpKey.Paint(rows.Fit(items[i], width)))
			continue
		}
		b.WriteString(st.HelpKey.Paint(safe.Line(k.Keys)))
		if k.Does != "" {
			b.WriteString(st.HelpDoes.Paint(" " + safe.Line(k.Does)))
		}
	}
	return b.String()
}

// helpFits chooses the keys the help line shows: the most needed first (lowest rank, then the
// earliest), for as long as the next one fits; at least one.
func helpFits(keys []Key, items []string, width int) []bool {
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[a].Rank, keys[b].Rank) })
	keep := make([]bool, len(keys))
	used := 0
	for n, i := range order {
		w := ansi.StringWidth(items[i])
		if n > 0 {
			w += ansi.StringWidth(helpSep)
		}
		if n > 0 && used+w > width {
			break
		}
		keep[i], used = true, used+w
	}
	return keep
}

// renderFooter is the bottom line: "demo (built-in) · api.openai.com · gpt-4o · Chat Completions ·
// MCP 2/3 · ctx 25% of 128k · $0.0054 · turn 120↑ 45↓ · session 900↑ 300↓". Only the endpoint's
// host is shown, never user info or a path; the API key is never in a Footer. Usage shows once
// it is non-zero; the context fill only when the window is known, the cost only when priced.
func renderFooter(st *theme, f Footer, width int) string {
	var parts []string
	if f.Demo {
		parts = append(parts, "demo (built-in)")
	}
	if h := format.Host(f.Endpoint); h != "" {
		parts = append(parts, safe.Line(h))
	}
	if f.Model != "" {
		parts = append(parts, safe.Line(f.Model))
	}
	if f.Wire != "" {
		parts = append(parts, safe.Line(f.Wire))
	}
	if f.MCP != "" {
		parts = append(parts, safe.Line(f.MCP))
	}
	if f.Context > 0 && f.Window > 0 {
		parts = append(parts, "ctx "+strconv.Itoa(f.Context*100/f.Window)+"% of "+budget.Tokens(f.Window))
	}
	if f.Priced {
		parts = append(parts, budget.Dollars(f.Cost))
	}
	if u := usage("turn", f.Turn); u != "" {
		parts = append(parts, u)
	}
	if u := usage("session", f.Session); u != "" {
		parts = append(parts, u)
	}
	if f.Accessible {
		parts = append(parts, "accessible")
	}
	if f.Warning != "" { // first, so that a narrow footer still shows it
		parts = append([]string{"! " + safe.Line(f.Warning)}, parts...)
	}
	return st.Footer.Paint(rows.Fit(strings.Join(parts, " · "), width))
}

func usage(label string, u Usage) string {
	if u.Prompt == 0 && u.Completion == 0 {
		return ""
	}
	return label + " " + format.Thousands(u.Prompt) + "↑ " + format.Thousands(u.Completion) + "↓"
}
