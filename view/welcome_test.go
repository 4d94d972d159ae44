package view

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/phase"
)

// demoTries stand in for the demo's own prompts (fixtures.DemoTries, which view cannot import).
var demoTries = []Try{
	{"what time is it?", "a tool call, drawn as a card"},
	{"read README.md", "a tool reading a file (Ctrl+O expands its card)"},
	{"make it fail", "the stream breaks mid-reply; Enter retries"},
}

func firstScreen(footer Footer, w Welcome) Frame {
	return Frame{Width: 80, Height: 24, State: phase.State{}, Focus: phase.FocusComposer,
		Composer: "│ Message the model…", ComposerCursorX: 2, ComposerCursor: true,
		Help:   []Key{{Keys: "enter", Does: "send"}, {Keys: "ctrl+j", Does: "newline", Rank: 3}, {Keys: "ctrl+c", Does: "quit", Rank: 1}, {Keys: "?", Does: "keys", Rank: 1}},
		Footer: footer, Welcome: &w}
}

// The first screen at 80x24, on the demo and on a configured endpoint: what this is, what
// answers (the endpoint's host only: no credentials, path or query), and on the demo three
// prompts to try.
func TestFirstScreen(t *testing.T) {
	tests := []struct {
		name  string
		frame Frame
	}{
		{"demo", firstScreen(Footer{Demo: true, Endpoint: "http://127.0.0.1:40123/v1", Model: "demo", Wire: "Chat Completions"}, Welcome{Try: demoTries})},
		{"endpoint", firstScreen(Footer{Endpoint: "https://alice:sk-secret@api.example.com/v1?key=hunter2", Model: "gpt-4o-mini", Wire: "Chat Completions"}, Welcome{})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scr := NewRenderer(PlainStyles()).Render(tt.frame)
			checkShape(t, scr.Content, 80, 24)
			for _, secret := range []string{"sk-secret", "alice", "hunter2", "/v1"} {
				if strings.Contains(scr.Content, secret) {
					t.Fatalf("the first screen shows %q:\n%s", secret, scr.Content)
				}
			}
			golden.RequireEqual(t, []byte(scr.Content))
		})
	}
}

// Notices (a piped-input note, an MCP server's trouble) keep their rows below the first
// screen; a short window keeps its first rows, which say what answers.
func TestFirstScreenGivesWayToNotices(t *testing.T) {
	f := firstScreen(Footer{Endpoint: "https://api.example.com/v1", Model: "m"}, Welcome{})
	f.Entries = published([]*draft{{Role: 2, Text: "MCP server files could not start"}})
	got := NewRenderer(PlainStyles()).Render(f).Content
	if !strings.Contains(got, "Endpoint  api.example.com") || !strings.Contains(got, "MCP server files could not start") {
		t.Fatalf("the first screen and the notice:\n%s", got)
	}
	f.Height = 10
	got = NewRenderer(PlainStyles()).Render(f).Content
	if !strings.Contains(got, "MCP server files could not start") || !strings.Contains(got, "phasechat — ") {
		t.Fatalf("a short window:\n%s", got)
	}
}
