package markdown

import (
	"strings"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// CodeBlocks returns the contents of the fenced code blocks of a finished markdown text, in
// order: exactly the blocks a Doc draws for it, each the text of the lines drawn inside the
// block (as written, with the fence's indentation removed), an unclosed block running to the
// end. It reads the text with the drawing's own block rules (Renderer.line), so what counts as
// a fence, where it closes, and a fence inside a list item are decided in one place.
func CodeBlocks(text string) []string {
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" { // a finished text's last line ends at its last line break
		lines = lines[:len(lines)-1]
	}
	r := &codeReader{lines: lines}
	m := NewRenderer(codePalette, 80, 0) // the block structure is the same at every width
	m.code = r
	var st blockState
	count := rows.NewCounter()
	for i, line := range lines {
		r.at = i
		m.line(&st, safe.Text(line), true, &count)
	}
	m.flush(&st, &count)
	r.close()
	return r.blocks
}

// codePalette draws nothing: CodeBlocks reads structure only.
var codePalette = NewPalette(Plain())

// codeReader collects the code blocks a Renderer passes while it reads a text's structure.
type codeReader struct {
	lines  []string // the text's lines, as written
	at     int      // the line being read
	inside bool
	strip  int // the open block's fence indentation, removed from its lines
	cur    []string
	blocks []string
}

func (r *codeReader) open(strip int) { r.inside, r.strip, r.cur = true, strip, nil }

func (r *codeReader) line() { r.cur = append(r.cur, stripColumns(r.lines[r.at], r.strip)) }

func (r *codeReader) close() {
	if r.inside {
		r.blocks = append(r.blocks, strings.Join(r.cur, "\n"))
		r.inside = false
	}
}
