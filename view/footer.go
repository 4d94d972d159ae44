package view

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase/format"
	"github.com/phasechat/phasechat/view/safe"
)

const helpSep = " · "

// renderHelp is the help line: "esc stop · pgup/pgdn scroll · ctrl+c quit". Keys that do not
// fit are left off whole and "…" says so; a first key too wide for the line is cut.
func renderHelp(st *theme, keys []Key, width int) string {
	var b strings.Builder
	used := 0
	for i, k := range keys {
		item := safe.Line(k.Keys)
		if k.Does != "" {
			item += " " + safe.Line(k.Does)
		}
		sep := ""
		if i > 0 {
			sep = helpSep
		}
		w := ansi.StringWidth(sep + item)
		rest := 0
		if i < len(keys)-1 {
			rest = ansi.StringWidth(helpSep + "…")
		}
		if used+w+rest > width {
			if i == 0 {
				b.WriteString(st.HelpKey.paint(fit(item, width)))
			} else if used+ansi.StringWidth(sep+"…") <= width {
				b.WriteString(st.HelpDoes.paint(sep + "…"))
			}
			break
		}
		b.WriteString(st.HelpDoes.paint(sep))
		b.WriteString(st.HelpKey.paint(safe.Line(k.Keys)))
		if k.Does != "" {
			b.WriteString(st.HelpDoes.paint(" " + safe.Line(k.Does)))
		}
		used += w
	}
	return b.String()
}

// renderFooter is the bottom line: "demo (built-in) · api.openai.com · gpt-4o · Chat Completions ·
// MCP 2/3 · turn 120↑ 45↓ · session 900↑ 300↓". Only the endpoint's host is shown, never user
// info or a path; the API key is never in a Footer. Usage shows once it is non-zero.
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
	return st.Footer.paint(fit(strings.Join(parts, " · "), width))
}

func usage(label string, u Usage) string {
	if u.Prompt == 0 && u.Completion == 0 {
		return ""
	}
	return label + " " + format.Thousands(u.Prompt) + "↑ " + format.Thousands(u.Completion) + "↓"
}
