package view

import (
	"slices"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/markdown"
	"github.com/phasechat/phasechat/view/rows"
)

// entryLines renders e alone at width in plain style and returns its lines.
func entryLines(e *draft, width int) []string {
	st := newTheme(PlainStyles())
	md := markdown.NewRenderer(st.Markdown, width, markdown.DefaultMeasure)
	var v entryView
	v.render(e.entry(), pen{st, md})
	var out []string
	for _, s := range v.segs {
		out = append(out, linesSlice(s)...)
	}
	return out
}

func TestRenderEntry(t *testing.T) {
	reasoning := "First I look.\nThen I think about 中文.\n"
	tests := []struct {
		name  string
		entry draft
		want  []string
	}{
		{"user wraps under its prefix", draft{Role: transcript.RoleUser, Text: "please summarise the README file for me"}, []string{
			"› please summarise the README",
			"  file for me"}},
		{"user text is not markdown", draft{Role: transcript.RoleUser, Text: "**not bold**\n# not a heading"}, []string{
			"› **not bold**",
			"  # not a heading"}},
		{"notice", draft{Role: transcript.RoleNotice, Text: "Connected."}, []string{"· Connected."}},
		{"assistant markdown", draft{Role: transcript.RoleAssistant, Text: "# Title\n\nSome *text*."}, []string{
			"  Title",
			"",
			"  Some text."}},
		{"reasoning folded", draft{Role: transcript.RoleAssistant, Reasoning: reasoning, Text: "Answer."}, []string{
			"  ▸ Reasoning · 37 chars",
			"",
			"  Answer."}},
		{"reasoning folded while streaming shows its newest line", draft{Role: transcript.RoleAssistant, Reasoning: reasoning, Streaming: true}, []string{
			"  ▸ Reasoning · 37 chars",
			"    Then I think about 中文."}},
		{"newest line keeps its end when too long", draft{Role: transcript.RoleAssistant, Streaming: true,
			Reasoning: "the beginning of a very long thought that ends here"}, []string{
			"  ▸ Reasoning · 51 chars",
			"    …ng thought that ends here"}},
		{"reasoning unfolded", draft{Role: transcript.RoleAssistant, Reasoning: reasoning, Expanded: true, Text: "Answer."}, []string{
			"  ▾ Reasoning · 37 chars",
			"    First I look.",
			"    Then I think about 中文.",
			"",
			"  Answer."}},
		{"one char", draft{Role: transcript.RoleAssistant, Reasoning: "x"}, []string{"  ▸ Reasoning · 1 char"}},
		{"stopped mark", draft{Role: transcript.RoleAssistant, Text: "Partial", Mark: transcript.MarkStopped}, []string{
			"  Partial",
			"",
			"  ■ Stopped — the partial",
			"  reply is kept."}},
		{"failed mark shows the note", draft{Role: transcript.RoleAssistant, Text: "Partial", Mark: transcript.MarkFailed,
			Note: "HTTP 500 from host: upstream broke"}, []string{
			"  Partial",
			"",
			"  ✗ HTTP 500 from host:",
			"    upstream broke"}},
		{"failed without a note", draft{Role: transcript.RoleAssistant, Mark: transcript.MarkFailed}, []string{
			"  ✗ The reply failed; the",
			"    partial reply is kept."}},
		{"a long error body is capped", draft{Role: transcript.RoleAssistant, Mark: transcript.MarkFailed, Note: strings.Repeat("body line\n", 45)},
			append(append([]string{"  ✗ body line"}, slices.Repeat([]string{"    body line"}, 39)...), "    … 5 more lines")},
		{"note without a mark", draft{Role: transcript.RoleAssistant, Text: "Hi", Note: "3 retries"}, []string{
			"  Hi",
			"",
			"  3 retries"}},
		{"empty while streaming", draft{Role: transcript.RoleAssistant, Streaming: true}, []string{"  …"}},
		{"empty when over", draft{Role: transcript.RoleAssistant}, []string{"  (empty reply)"}},
		{"text then cards", draft{Role: transcript.RoleAssistant, Text: "Reading.", Cards: []draftCard{
			{Name: "a", Status: phase.CallRunning}, {Name: "b", Status: phase.CallPending}}}, []string{
			"  Reading.",
			"",
			"  ◐ running · a",
			"  ◌ pending · b · waiting for",
			"    arguments…"}},
	}
	for _, tt := range tests {
		got := entryLines(&tt.entry, 30)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestReasoningCountIsIncremental grows reasoning line by line through one view and checks the
// count against a fresh view each time, including across a rune split between deltas.
func TestReasoningCountIsIncremental(t *testing.T) {
	st := newTheme(PlainStyles())
	var v reasoningView
	text := ""
	for _, d := range []string{"é", "\n", "中文\nab", "\xe4", "\xb8\xad", "\n\n", "👍🏽"} {
		text += d
		e := &draft{Role: transcript.RoleAssistant, Reasoning: text}
		got := linesSlice(v.render(e.entry(), st, 40)[0])
		var fresh reasoningView
		want := linesSlice(fresh.render(e.entry(), st, 40)[0])
		if !slices.Equal(got, want) {
			t.Fatalf("after %q: incremental %q, fresh %q", text, got, want)
		}
	}
	if got := linesSlice(v.render((&draft{Reasoning: "new"}).entry(), st, 40)[0]); !strings.Contains(got[0], "3 chars") {
		t.Fatalf("replaced reasoning not recounted: %q", got)
	}
}

// A reply drawn while it streamed and then finished holds only its finished drawing: no run
// of its open part stays reachable from the entry's caches.
func TestAFinishedEntryHoldsNoOpenDrawing(t *testing.T) {
	st := newTheme(PlainStyles())
	md := markdown.NewRenderer(st.Markdown, 60, markdown.DefaultMeasure)
	text := strings.Repeat("words of one long streaming line ", 300)
	d := &draft{Role: transcript.RoleAssistant, Streaming: true}
	var v entryView
	for cut := 100; cut < len(text); cut += 500 {
		d.Text = text[:cut]
		v.render(d.entry(), pen{st, md})
	}
	d.Text, d.Streaming = text+"\n", false
	v.render(d.entry(), pen{st, md})
	for _, held := range [][]rows.Lines{v.segs, v.mdRuns[0].runs} {
		for i, r := range held[len(held):cap(held)] {
			if r.Len() > 0 {
				t.Fatalf("run %d past the %d in use still holds %d rows", len(held)+i, len(held), r.Len())
			}
		}
	}
}
