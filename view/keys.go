package view

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// keysTitle heads the key overlay.
const keysTitle = "Keys — Esc, ? or F1 closes this list; pgup/pgdn and ↑/↓ scroll it"

// renderKeys is the key overlay, height rows tall: a title, then each key, its names in a
// column and what it does after them, wrapped to width. When the keys do not all fit, the last
// row says how many more there are.
func renderKeys(st *theme, keys []Key, width, height int) []string {
	if height <= 0 {
		return nil
	}
	out := make([]string, 0, height)
	out = append(out, st.HelpKey.Paint(rows.Fit(keysTitle, width)))
	col, rest := keyColumns(keys, width)
	for i, k := range keys {
		key := keyRows(st, k, col, rest, width)
		last := i == len(keys)-1
		if len(out)+len(key) > height || !last && len(out)+len(key) > height-1 {
			if len(out) < height {
				more := len(keys) - i
				out = append(out, st.HelpDoes.Paint(rows.Fit(keyIndent+"… "+format.Thousands(more)+" more "+
					format.Plural(more, "key", "keys")+" (pgdn or ↓)", width)))
			}
			break
		}
		out = append(out, key...)
	}
	for len(out) < height {
		out = append(out, "")
	}
	return out
}

// keysHeight is how many rows the key overlay takes to show every key at width.
func keysHeight(st *theme, keys []Key, width int) int {
	col, rest := keyColumns(keys, width)
	n := 1
	for _, k := range keys {
		n += len(keyRows(st, k, col, rest, width))
	}
	return n
}

// LastKeysPage is where the key list's last page begins: the earliest index into f.Keys (every
// key) from which the overlay shows each key to the last in f's transcript area; 0 when they
// all fit.
func (r *Renderer) LastKeysPage(f Frame) int {
	height, _ := r.Layout(f)
	width := max(1, f.Width)
	from := len(f.Keys) - 1
	for from > 0 && keysHeight(r.st, f.Keys[from-1:], width) <= height {
		from--
	}
	return max(0, from)
}

// keyColumns is the width of the overlay's names column and of what the keys do beside it.
func keyColumns(keys []Key, width int) (col, rest int) {
	for _, k := range keys {
		col = max(col, ansi.StringWidth(safe.Line(k.Keys)))
	}
	col = min(col, max(1, width/3))
	return col, width - len(keyIndent) - col - len(keyGap)
}

const keyIndent, keyGap = "  ", "  "

// keyRows is one key of the overlay: its names cut to col cells, what it does wrapped to rest
// cells (or, with no room beside the names, nothing).
func keyRows(st *theme, k Key, col, rest, width int) []string {
	indent := keyIndent + keyGap
	name := rows.Fit(safe.Line(k.Keys), col)
	first := st.HelpKey.Paint(rows.Fit(keyIndent+name, width))
	if rest < 8 {
		return []string{first}
	}
	pad := strings.Repeat(" ", col-ansi.StringWidth(name))
	does := rows.WrapLines(safe.Line(k.Does), rest)
	out := make([]string, 0, len(does))
	for i, line := range does {
		if i == 0 {
			out = append(out, rows.TrimStyledEnd(first+pad+keyGap+st.HelpDoes.Paint(line)))
			continue
		}
		out = append(out, rows.TrimStyledEnd(strings.Repeat(" ", len(indent)+col)+st.HelpDoes.Paint(line)))
	}
	if len(out) == 0 {
		out = append(out, first)
	}
	return out
}

// scrolledRule is the rule under a transcript scrolled up: "─── ↓ 143 more lines · End follows
// ───", saying how far the tail is and which key goes back to it.
func scrolledRule(st *theme, below int, followKey string, width int) string {
	text := "↓ " + format.Thousands(below) + " more " + format.Plural(below, "line", "lines")
	if followKey != "" {
		text += " · " + safe.Line(followKey) + " follows"
	}
	const lead = "─── "
	text = rows.Fit(text, max(0, width-ansi.StringWidth(lead)-1))
	tail := width - ansi.StringWidth(lead) - ansi.StringWidth(text) - 1
	if width < ansi.StringWidth(lead)+2 {
		return st.HelpKey.Paint(rows.Fit(text, width))
	}
	return st.Rule.Paint(lead) + st.HelpKey.Paint(text) + st.Rule.Paint(" "+strings.Repeat("─", max(0, tail)))
}
