package tui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessionlog"
	"github.com/phasechat/phasechat/view"
)

// transcriptRows are the rows of a screen above the rule that closes the transcript.
func transcriptRows(t *testing.T, screen string) string {
	t.Helper()
	rows := strings.Split(screen, "\n")
	for i, row := range rows {
		if row != "" && strings.Trim(row, "─") == "" {
			return strings.Join(rows[:i], "\n")
		}
	}
	t.Fatalf("no rule under the transcript:\n%s", screen)
	return ""
}

// tookOnCard is a card's running time, which the session log does not keep.
var tookOnCard = regexp.MustCompile(` · \d+ms`)

// A reply that talks between its tool calls, logged and resumed into a new engine and screen,
// shows its text and cards in the order they streamed: the resumed transcript is the live one
// (but for the cards' running times, which the log does not keep).
func TestResumedReplyKeepsItsOrder(t *testing.T) {
	h := newHarness(t, "agentic", 80, 40)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	w, err := sessionlog.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	h.m.log = w
	h.submit("look around")
	h.feedAll()
	live := h.m.View().Content
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := sessionlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Chat: chat.New(h.cfg, log.Messages), Styles: view.PlainStyles(),
		Footer: view.Footer{Endpoint: "http://fixtures.test/v1", Model: "agentic"},
		Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	resumed := m.View().Content
	want := tookOnCard.ReplaceAllString(transcriptRows(t, live), "")
	if got := transcriptRows(t, resumed); got != want {
		t.Fatalf("the resumed transcript differs from the live one\nlive:\n%s\nresumed:\n%s", want, got)
	}
	rest := want
	for _, next := range []string{"Let me look", "✓ done · list_dir", "The listing is", "✓ done · list_dir", "So both"} {
		at := strings.Index(rest, next)
		if at < 0 {
			t.Fatalf("the live reply is not text, card, text, card, text (no %q where expected):\n%s", next, want)
		}
		rest = rest[at+len(next):]
	}
	golden.RequireEqual(t, []byte(resumed))
}
