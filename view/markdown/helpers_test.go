package markdown

import (
	"fmt"

	"github.com/phasechat/phasechat/view/rows"
)

func linesSlice(l rows.Lines) []string {
	var out []string
	for i := range l.Len() {
		out = append(out, l.At(i))
	}
	return out
}

// replyText is an assistant reply of about 20 rows at 120 columns: paragraphs, a list and a
// code block, numbered so no two replies share text.
func replyText(n int) string {
	p := fmt.Sprintf("Reply %d explains the pipeline in some detail: frames are read, classified, "+
		"reassembled and reduced, and the view draws only what the window shows, caching every "+
		"entry it has drawn so that the next frame costs almost nothing. ", n)
	return p + "\n\n- first point about **caching**\n- second point about `streaming`\n\n" +
		"```go\nfunc f(x int) int {\n\treturn x * 2\n}\n```\n\n" + p + p
}
