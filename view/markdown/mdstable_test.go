package markdown

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/phasechat/phasechat/view/safe/safetest"
)

// stabilityDocs are markdown replies covering every block and inline rule.
var stabilityDocs = []string{
	"Some **bold**, some *italic*, some ***both***, some ~~struck~~ and `code` text.\nA second line with __under__ and _score_ and a_b_c and 2 * 3 * 4.\n",
	"# Heading one\n## Heading two ##\n### Three\n#### Four\nText under.\n\n####### not a heading\n#hashtag\n",
	"- one\n- two is a long item that should wrap with a hanging indent under its own text\n  - nested *item*\n    continued line of the nested item\n    - deeper\n- back out\n\n1. first\n2. second\n   - mixed\n10. tenth\n\nAfter the list.\n",
	"| Name | Value |\n|---|---:|\n| alpha | 1 |\n| beta | 22 |\n| a much longer name that has to wrap inside its column | the widest value of the whole table comes last and wraps |\n\nAfter.\n",
	"| a | b |\nnot a delimiter\n\n| x |\n|:-:|\n| centred |\n",
	"```go\nfunc main() {\n\t/* a block\n\tcomment */\n\ts := `raw\nstring`\n\tprintln(\"hi\") // a comment long enough to wrap inside the block at a narrow width\n}\n```\n\n```\nno language\n\n  kept indentation\n```\n\n~~~python\ndef f():\n    \"\"\"doc\n    string\"\"\"\n    return 1\n~~~\n",
	"> a quote with **bold**\n> > nested quote\n> - item in a quote\n\n---\n***\n___\n- - -\n",
	"中文的句子很长很长很长很长很长很长很长很长很长很长很长很长很长很长很长很长很长。\nemoji 👍🏽 👨\u200d👩\u200d👧 🏳️\u200d🌈 and e\u0301 combining, 1️⃣ keycap.\n",
	"Escapes \x1b[31mred\x1b[0m and \x1b]0;title\x07 and \x9b2J and &#27;[2J and &#x9b; and &rlm; and \u202e bidi.\n`code \x1b[2J` and [link \x1b](https://evil.example/\x1b[2J) [ok](https://ok.example/path).\n",
	"A [link](https://example.com/a) and ![image](https://example.com/i.png) and [not a link] (x) and [unclosed.\nA\\*literal\\* and \\`tick\\` and &amp; &lt;tag&gt; &copy; &#169; &bogus; & alone.\n",
	strings.Repeat("A long paragraph that wraps across several lines of the screen, with **bold** in it. ", 8) + "\n" + strings.Repeat("x", 150) + "\n",
	"Text\n\n\n\nafter three blank lines\n   \n\tindented with a tab\n    four spaces\n",
	"**unclosed bold at the end of a line\nnext *line* fine\n`unclosed code\nlast",
	"1. Step one\n\n   ```sh\n   echo hi\n   ```\n\n2. Step two\n",
}

// docRuns draws text through d at m, returning each run's lines.
func docRuns(d *Doc, m *Renderer, text string, streaming bool) [][]string {
	var out [][]string
	for _, l := range d.Update(m, text, streaming) {
		out = append(out, linesSlice(l))
	}
	return out
}

func flat(runs [][]string) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r...)
	}
	return out
}

// checkStable checks the stability invariant for text cut at every point in cuts: streamed
// through one document, the complete lines drawn (the first run) are the first lines of the
// finished text's drawing, and every run equals what a fresh document draws for the same prefix.
func checkStable(t *testing.T, text string, cuts []int, width int, pal *Palette) {
	t.Helper()
	m := NewRenderer(pal, width, DefaultMeasure)
	var fin Doc
	finished := flat(docRuns(&fin, m, text, false))
	var d Doc
	for _, cut := range cuts {
		prefix := text[:cut]
		runs := docRuns(&d, m, prefix, true)
		if stable := runs[0]; len(stable) > len(finished) || !slices.Equal(stable, finished[:len(stable)]) {
			t.Fatalf("width %d, cut %d (%q): complete lines differ from the finished reply's\nstreamed: %q\nfinished: %q", width, cut, prefix, stable, finished)
		}
		var cold Doc
		if want := docRuns(&cold, m, prefix, true); !slices.Equal(flat(runs), flat(want)) {
			t.Fatalf("width %d, cut %d (%q): incremental drawing differs from a fresh one\nincremental: %q\nfresh:       %q", width, cut, prefix, flat(runs), flat(want))
		}
	}
	if got := flat(docRuns(&d, m, text, false)); !slices.Equal(got, finished) {
		t.Fatalf("width %d: streamed then finished differs from finished at once\n got %q\nwant %q", width, got, finished)
	}
}

// TestMarkdownStability: for every document, width and cut point, the lines above the open
// line never change and streaming draws what a fresh render draws.
func TestMarkdownStability(t *testing.T) {
	for _, pal := range []*Palette{NewPalette(Plain()), NewPalette(Dark())} {
		for _, doc := range stabilityDocs {
			cuts := make([]int, len(doc))
			for c := range cuts {
				cuts[c] = c + 1
			}
			for _, width := range []int{24, 60, 130} {
				checkStable(t, doc, cuts, width, pal)
			}
		}
	}
}

// TestMarkdownLines checks what the block and inline rules draw (plain style, 40 columns).
func TestMarkdownLines(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"line breaks kept", "roses are red\nviolets are blue", []string{"  roses are red", "  violets are blue"}},
		{"heading without marks", "## Plan ##\ntext", []string{"  Plan", "  text"}},
		{"blank lines collapse", "a\n\n\n\nb\n\n", []string{"  a", "", "  b"}},
		{"hanging indent", "- an item long enough to wrap onto a second line", []string{"  • an item long enough to wrap onto a", "    second line"}},
		{"nested and ordered", "1. one\n   - sub\n2. two", []string{"  1. one", "     ◦ sub", "  2. two"}},
		{"no nbsp around code", "run `go test` now", []string{"  run go test now"}},
		{"link text then address", "see [docs](https://d.example)", []string{"  see docs https://d.example"}},
		{"unclosed emphasis is literal", "a **b c", []string{"  a **b c"}},
		{"escaped delimiters", `\*a\* 2 * 3`, []string{"  *a* 2 * 3"}},
		{"quote bar", "> said", []string{"  │ said"}},
		{"rule", "---", []string{"  " + strings.Repeat("─", 38)}},
		{"code stays in its block", "```\n" + strings.Repeat("y", 50) + "\n```", []string{"  ───", "    " + strings.Repeat("y", 36), "  ↪ " + strings.Repeat("y", 14), "  ───"}},
		{"table sized to its header", "| a | b |\n|---|---|\n| 1 | 2 |", []string{"  a                │ b", "  ─────────────────┼─────────────────", "  1                │ 2"}},
		{"pipe line without delimiter is text", "| a |\nb", []string{"  | a |", "  b"}},
	}
	m := NewRenderer(NewPalette(Plain()), 40, DefaultMeasure)
	for _, tt := range tests {
		var d Doc
		if got := flat(docRuns(&d, m, tt.text, false)); !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestMeasureCapsProse: at 200 columns prose wraps at the measure.
func TestMeasureCapsProse(t *testing.T) {
	for _, measure := range []int{DefaultMeasure, 60} {
		m := NewRenderer(NewPalette(Plain()), 200, measure)
		var d Doc
		for _, l := range flat(docRuns(&d, m, strings.Repeat("word ", 100), false)) {
			if w := utf8.RuneCountInString(l) - 2; w > measure {
				t.Fatalf("measure %d: line of %d cells: %q", measure, w, l)
			}
		}
	}
}

// FuzzMarkdownStability checks the stability invariant on arbitrary text cut into deltas of
// the sizes the fuzzer picks.
func FuzzMarkdownStability(f *testing.F) {
	for _, d := range stabilityDocs {
		f.Add(d, uint8(3))
	}
	f.Fuzz(func(t *testing.T, text string, step uint8) {
		if len(text) > 1000 {
			return
		}
		var cuts []int
		for c := 1 + int(step)%7; c < len(text); c += 1 + int(step)%7 {
			cuts = append(cuts, c)
		}
		pal := NewPalette(Dark())
		checkStable(t, text, cuts, 20+int(step)%50, pal)
		m := NewRenderer(pal, 20+int(step)%50, DefaultMeasure)
		var d Doc
		for _, l := range flat(docRuns(&d, m, text, false)) {
			if err := safetest.CheckClean(sgrAnywhere.ReplaceAllString(l, "")); err != nil {
				t.Fatalf("%v in %q", err, l)
			}
		}
		// At another width the document counts its lines from their measures and draws
		// what a document drawn only at that width draws.
		other := NewRenderer(pal, 8+int(step)%90, DefaultMeasure)
		var fresh Doc
		if got, want := flat(docRuns(&d, other, text, false)), flat(docRuns(&fresh, other, text, false)); !slices.Equal(got, want) {
			t.Fatalf("resized from %d to %d:\n%q\nwant\n%q", m.Width, other.Width, got, want)
		}
	})
}

var sgrAnywhere = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
