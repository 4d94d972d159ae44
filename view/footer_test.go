package view

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

func TestRenderFooter(t *testing.T) {
	tests := []struct {
		name   string
		footer Footer
		width  int
		want   string
	}{
		{"demo", Footer{Demo: true, Model: "demo-1"}, 80, "demo (built-in) · demo-1"},
		{"endpoint host only, no user info or path", Footer{Endpoint: "https://user:sk-secret@api.openai.com/v1", Model: "gpt-4o"}, 80,
			"api.openai.com · gpt-4o"},
		{"host with port, no scheme", Footer{Endpoint: "localhost:8080", Model: "llama"}, 80, "localhost:8080 · llama"},
		{"usage", Footer{Endpoint: "https://api.groq.com/openai/v1", Model: "m", Turn: Usage{120, 45}, Session: Usage{9000, 3000}}, 80,
			"api.groq.com · m · turn 120↑ 45↓ · session 9,000↑ 3,000↓"},
		{"the wire format", Footer{Endpoint: "https://api.anthropic.com/v1", Model: "claude", Wire: "Anthropic Messages", Turn: Usage{1, 2}}, 80,
			"api.anthropic.com · claude · Anthropic Messages · turn 1↑ 2↓"},
		{"zero usage left off", Footer{Model: "m", Session: Usage{1, 0}}, 80, "m · session 1↑ 0↓"},
		{"accessible", Footer{Model: "m", Accessible: true}, 80, "m · accessible"},
		{"mcp servers", Footer{Model: "m", MCP: "MCP 2/3", Turn: Usage{1, 2}}, 80, "m · MCP 2/3 · turn 1↑ 2↓"},
		{"truncated to width", Footer{Demo: true, Model: "a-very-long-model-name"}, 20, "demo (built-in) · a…"},
		{"empty", Footer{}, 80, ""},
		{"context at a quarter, and the cost", Footer{Model: "gpt-4o", Context: 32_000, Window: 128_000, Cost: 0.0054, Priced: true, Turn: Usage{30_000, 2000}}, 80,
			"gpt-4o · ctx 25% of 128k · $0.0054 · turn 30,000↑ 2,000↓"},
		{"context empty", Footer{Model: "m", Context: 1, Window: 200_000}, 80, "m · ctx 0% of 200k"},
		{"context at 80%", Footer{Model: "m", Context: 160_000, Window: 200_000}, 80, "m · ctx 80% of 200k"},
		{"context full", Footer{Model: "m", Context: 1_050_000, Window: 1_050_000}, 80, "m · ctx 100% of 1.05M"},
		{"context over the window", Footer{Model: "m", Context: 300_000, Window: 200_000}, 80, "m · ctx 150% of 200k"},
		{"unknown window: tokens only", Footer{Model: "m", Context: 5000, Turn: Usage{4000, 1000}}, 80, "m · turn 4,000↑ 1,000↓"},
		{"free is said", Footer{Model: "m", Priced: true}, 80, "m · $0.00"},
	}
	st := newTheme(PlainStyles())
	for _, tt := range tests {
		if got := renderFooter(st, tt.footer, tt.width); got != tt.want {
			t.Errorf("%s: got %q want %q", tt.name, got, tt.want)
		}
	}
	if got := renderFooter(st, Footer{Endpoint: "https://u:hunter2@h.example"}, 80); strings.Contains(got, "hunter2") {
		t.Fatalf("footer shows user info: %q", got)
	}
}

// The help line leaves off the keys of highest rank first when narrow (the later of equal
// ranks first), keeps the rest in their order, and cuts a single key that cannot fit.
func TestRenderHelp(t *testing.T) {
	keys := []Key{{Keys: "esc", Does: "stop"}, {Keys: "pgup/pgdn", Does: "scroll", Rank: 2}, {Keys: "ctrl+o", Does: "expand", Rank: 2}, {Keys: "ctrl+c", Does: "quit", Rank: 1}}
	tests := []struct {
		width int
		want  string
	}{
		{80, "esc stop · pgup/pgdn scroll · ctrl+o expand · ctrl+c quit"},
		{57, "esc stop · pgup/pgdn scroll · ctrl+o expand · ctrl+c quit"},
		{56, "esc stop · pgup/pgdn scroll · ctrl+c quit"},
		{41, "esc stop · pgup/pgdn scroll · ctrl+c quit"},
		{40, "esc stop · ctrl+c quit"},
		{22, "esc stop · ctrl+c quit"},
		{21, "esc stop"},
		{6, "esc s…"},
	}
	st := newTheme(PlainStyles())
	for _, tt := range tests {
		if got := renderHelp(st, keys, tt.width); got != tt.want {
			t.Errorf("width %d: got %q want %q", tt.width, got, tt.want)
		}
	}
	if got := renderHelp(st, nil, 80); got != "" {
		t.Errorf("no keys: got %q", got)
	}
}

func TestRenderStatus(t *testing.T) {
	st := newTheme(PlainStyles())
	streaming := phase.State{Phase: phase.StreamingText}
	failed := phase.State{Phase: phase.Error, Reason: "HTTP 401 from api.openai.com: Incorrect API key provided"}
	tests := []struct {
		name    string
		state   phase.State
		focus   phase.Focus
		width   int
		rows    []string
		ctlCol  int
		hasCtl  bool
		focused bool
	}{
		{"idle has no control", phase.State{}, phase.FocusComposer, 80,
			[]string{"Type a message and press Enter to send. Ctrl+C quits."}, 0, false, false},
		{"stop focused", streaming, phase.FocusStop, 80,
			[]string{"Writing a reply. Esc stops generating.                            [ Stop · Esc ]"}, 68, true, true},
		{"retry focused, long reason wraps clear of the button", failed, phase.FocusRetry, 80, []string{
			"HTTP 401 from api.openai.com: Incorrect API key provided.",
			"Retry is available: Enter retries, Tab goes to the composer.   [ Retry · Enter ]"}, 65, true, true},
		{"retry shown, composer focused: the hint says what Enter does now", failed, phase.FocusComposer, 80, []string{
			"HTTP 401 from api.openai.com: Incorrect API key provided.",
			"Enter sends a new message, Shift+Tab goes to Retry.            [ Retry · Enter ]"}, 65, true, false},
		{"narrow: the control has its own row", streaming, phase.FocusStop, 30, []string{
			"Writing a reply. Esc stops",
			"generating.",
			"                [ Stop · Esc ]"}, 18, true, true},
		{"narrow idle keeps the control row", phase.State{}, phase.FocusComposer, 30, []string{
			"Type a message and press Enter",
			"to send. Ctrl+C quits.",
			""}, 0, false, false},
	}
	for _, tt := range tests {
		max := maxStatusLines
		if tt.width < narrowWidth {
			max++
		}
		b := renderStatus(st, tt.state, note{}, tt.focus, tt.width, max)
		if strings.Join(b.rows, "\n") != strings.Join(tt.rows, "\n") || b.ctlCol != tt.ctlCol || b.hasCtl != tt.hasCtl || b.focused != tt.focused {
			t.Errorf("%s:\n got %q col %d ctl %v focused %v\nwant %q col %d ctl %v focused %v", tt.name,
				b.rows, b.ctlCol, b.hasCtl, b.focused, tt.rows, tt.ctlCol, tt.hasCtl, tt.focused)
		}
		if b.ctlRow != len(b.rows)-1 {
			t.Errorf("%s: control row %d is not the last of %d", tt.name, b.ctlRow, len(b.rows))
		}
	}
	// Capped: an error longer than the rows it may take loses the end of its reason ("…"),
	// never the Retry hint; the control is still last.
	long := phase.State{Phase: phase.Error, Reason: strings.Repeat("word ", 60)}
	b := renderStatus(st, long, note{}, phase.FocusRetry, 80, 2)
	joined := strings.Join(b.rows, " ")
	if len(b.rows) != 2 || !strings.Contains(b.rows[0], "…") || !strings.Contains(joined, "Enter retries, Tab goes to the composer.") || !strings.HasSuffix(b.rows[1], retryButton) {
		t.Fatalf("capped status: %q", b.rows)
	}
	// So does a long approval question: its keys stay.
	asking := phase.State{Phase: phase.StreamingTool, Tool: "t", Ask: strings.Repeat("k=v ", 60)}
	b = renderStatus(st, asking, note{}, phase.FocusStop, 80, 2)
	if joined := strings.Join(b.rows, " "); len(b.rows) != 2 || !strings.Contains(joined, "…") || !strings.Contains(joined, "y runs it, n declines") {
		t.Fatalf("capped ask: %q", b.rows)
	}
}

// renderStatus is the status block with no time passing.
func renderStatus(st *theme, state phase.State, n note, focus phase.Focus, width, maxRows int) statusBlock {
	return renderStatusTimed(st, state, n, focus, Timing{}, "", width, maxRows)
}
