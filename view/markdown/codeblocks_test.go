package markdown

import (
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/phasechat/phasechat/view/safe"
)

func TestCodeBlocks(t *testing.T) {
	for text, want := range map[string][]string{
		"no code":                         nil,
		"```\na\n```":                     {"a"},
		"  ```py\nx\n\ny\n  ```\n":        {"x\n\ny"},
		"````\n```\ninner\n```\n````":     {"```\ninner\n```"},
		"```\nunclosed":                   {"unclosed"},
		"``` `not a fence`\n":             nil,
		"~~~\nt\n~~~\n```\nu\n```":        {"t", "u"},
		"    ```\nindented code\n    ```": nil,
	} {
		if got := CodeBlocks(text); !slices.Equal(got, want) {
			t.Errorf("CodeBlocks(%q) = %q, want %q", text, got, want)
		}
	}
}

// fenceStyles marks a fence row (faint) and nothing else, so a drawing shows where its code
// blocks begin and end.
var fenceStyles = Styles{Fence: lipgloss.NewStyle().Faint(true)}

const fenceMark = "\x1b[2m"

// drawnCodeBlocks reads the code blocks off a finished text's drawing, wide enough that no code
// line of up to 1,000 bytes wraps (a tab is four cells): the rows between a fence row and the
// next, each as drawn.
func drawnCodeBlocks(text string) (blocks [][]string, pads []string) {
	var d Doc
	m := NewRenderer(NewPalette(fenceStyles), 5000, 0)
	inside := false
	for _, run := range d.Update(m, text, false) {
		for _, row := range linesSlice(run) {
			switch {
			case strings.Contains(row, fenceMark) && !inside:
				inside = true
				blocks = append(blocks, []string{})
				pads = append(pads, row[:strings.Index(row, fenceMark)])
			case strings.Contains(row, fenceMark):
				inside = false
			case inside:
				blocks[len(blocks)-1] = append(blocks[len(blocks)-1], row)
			}
		}
	}
	return blocks, pads
}

// checkCodeBlocksDrawn checks that CodeBlocks numbers exactly the blocks the drawing of text
// shows, in order, each line of a block the row drawn for it.
func checkCodeBlocksDrawn(t *testing.T, text string) {
	t.Helper()
	got := CodeBlocks(text)
	drawn, pads := drawnCodeBlocks(text)
	if len(got) != len(drawn) {
		t.Fatalf("%q: CodeBlocks has %d blocks, the screen draws %d\nCodeBlocks: %q\ndrawn: %q", text, len(got), len(drawn), got, drawn)
	}
	for i, block := range got {
		lines := strings.Split(block, "\n")
		if block == "" && len(drawn[i]) == 0 {
			continue
		}
		if len(lines) != len(drawn[i]) {
			t.Fatalf("%q: block %d has %d lines, the screen draws %d\nCodeBlocks: %q\ndrawn: %q", text, i+1, len(lines), len(drawn[i]), lines, drawn[i])
		}
		for j, line := range lines {
			cells, _ := highlight(nil, safe.Text(line), codeState{})
			if want := strings.TrimRight(pads[i]+"  "+cellText(cells), " "); drawn[i][j] != want {
				t.Fatalf("%q: block %d line %d is %q, the screen draws %q", text, i+1, j+1, want, drawn[i][j])
			}
		}
	}
}

// trickyFences are documents whose fences are easy to miscount.
var trickyFences = []string{
	"```\na\n```",
	"  ```py\nx\n\ny\n  ```\n",
	"   ~~~\ncode\n   ~~~\n",
	"    ```\nindented four: no fence\n    ```\n",
	"\t```\ntab-indented: no fence\n\t```\n",
	"~~~\n```\nbackticks do not close tildes\n~~~\n```\nnor tildes backticks\n~~~\n```\n",
	"```go\nfunc f() {}\n",
	"```go\nfunc f() {}",
	"```\n",
	"```\n```",
	"```\n\n\n```\n",
	"1. Step one\n\n   ```sh\n   echo hi\n   ```\n\n2. Step two\n",
	"- a\n  - b\n      ```\n      deep in a list\n      ```\n- c\n",
	"- item\n```\nafter the list, at the margin\n```\n",
	"```\nx\n`````\nafter a longer closing fence\n",
	"````\n```\ninner\n```\n````\n",
	"```\na\n``` not closing: info after it\nb\n```\n",
	"  ```\na\n     ```\nclosed five columns in\n",
	"```\na\n      ```\nnot closed six columns in\n",
	"```go title=\"x.go\"\nx := 1\n```\n",
	"``` `not a fence`\ntext\n",
	"~~~ `tildes may have backticks`\ny\n~~~\n",
	"| a | b |\n```\ncode after a held table header\n```\n",
	"| a | b |\n|---|---|\n| 1 | 2 |\n```\ncode after a table\n```\n",
	"> ```\n> in a quote: no fence\n> ```\n",
	"# Heading\n```\nunder a heading\n```\ntext\n~~~\ntwo\n~~~\n",
	"```\r\nwindows line ends\r\n```\r\n",
	"```\n\tindented with a tab &#27; and a reference\n```\n",
	"text\n```\nunclosed at the end\nstill code\n\n",
}

func TestCodeBlocksAreTheBlocksTheScreenDraws(t *testing.T) {
	for _, text := range append(trickyFences, stabilityDocs...) {
		checkCodeBlocksDrawn(t, text)
	}
	if got := CodeBlocks("- a\n  - b\n      ```\n      deep\n      ```\n"); !slices.Equal(got, []string{"deep"}) {
		t.Errorf("a fence inside a nested list item: %q, want [\"deep\"]", got)
	}
	if got := CodeBlocks("```\na\n```\n```\nb\n"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("a closed then an unclosed block: %q", got)
	}
}

// FuzzCodeBlocks holds CodeBlocks to the blocks the drawing shows, for any text.
func FuzzCodeBlocks(f *testing.F) {
	for _, text := range trickyFences {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1000 {
			return
		}
		checkCodeBlocksDrawn(t, text)
	})
}
