package view

import (
	"strings"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// fileIndent is where an expanded prompt's file details start, under its chip.
const fileIndent = "    "

// promptFiles is what an expanded prompt shows under its text: each file's chip, then its
// details (a text file's contents, an image's facts) indented and dimmed. Both are untrusted
// and sanitised here.
func promptFiles(files []transcript.File, st *theme, w int) rows.Lines {
	var b rows.Builder
	detail := func(s string) string { return st.CardDetail.Paint(s) }
	for _, f := range files {
		rows.WrapInto(&b, safe.Text(f.Chip), w, "  ", "  ", nil)
		rows.WrapInto(&b, safe.Text(strings.TrimSuffix(f.Details, "\n")), w, fileIndent, fileIndent, detail)
	}
	return b.Compact()
}
