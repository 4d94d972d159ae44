package view

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/markdown"
)

// openBlockReplies are replies cut while a block is open; the finished reply is the cut text
// followed by rest.
var openBlockReplies = []struct{ name, streamed, rest string }{
	{"mid-emphasis", "# Release notes\n\nThis version is **much faster** and *a little", " smaller* than before.\nIt keeps `every` line.\n"},
	{"mid-list", "Steps:\n\n1. Install the tool with `go install`\n2. Run it once\n   - it writes a config\n   - it asks for a ke", "y\n3. Done\n"},
	{"mid-table", "| Name | Role | Notes |\n|------|:----:|-------|\n| alpha | lead | writes the plan |\n| beta | review", "er | reads **every** change and answers within a day, longer than any other cell so far |\n\nThat is all.\n"},
	{"mid-fence", "Here is the fix:\n\n```go\nfunc f(x int) int {\n\t// double it, with a comment long enough to need a second line inside the block\n\treturn x *", " 2\n}\n```\n\nIt compiles.\n"},
}

func openBlockFrame(text string, streaming bool, width int) Frame {
	e := &draft{Role: transcript.RoleAssistant, Text: text, Streaming: streaming}
	f := hostileFrame(e)
	f.Width, f.Height = width, 30
	return f
}

// TestOpenBlockGolden draws each reply mid-block and finished, in plain, dark, light and mono
// styles: above the open line the two screens are the same.
func TestOpenBlockGolden(t *testing.T) {
	for _, st := range []struct {
		name   string
		styles Styles
	}{{"plain", PlainStyles()}, {"dark", DarkStyles()}, {"light", LightStyles()}, {"mono", MonoStyles()}} {
		for _, r := range openBlockReplies {
			for _, width := range []int{60} {
				t.Run(fmt.Sprintf("%s/%s/%d", r.name, st.name, width), func(t *testing.T) {
					streamed := NewRenderer(st.styles).Render(openBlockFrame(r.streamed, true, width)).Content
					finished := NewRenderer(st.styles).Render(openBlockFrame(r.streamed+r.rest, false, width)).Content
					golden.RequireEqual(t, []byte(streamed+"\n=== finished ===\n"+finished))
					var d markdown.Doc
					m := markdown.NewRenderer(newTheme(st.styles).Markdown, width, markdown.DefaultMeasure)
					above := len(linesSlice(d.Update(m, r.streamed, true)[0]))
					s, f := strings.Split(streamed, "\n"), strings.Split(finished, "\n")
					if above == 0 || !slices.Equal(s[:above], f[:above]) {
						t.Fatalf("the %d lines above the open line differ:\nstreamed:\n%s\nfinished:\n%s", above, strings.Join(s[:above], "\n"), strings.Join(f[:above], "\n"))
					}
				})
			}
		}
	}
}
