package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/stream/wire"
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
// (but for the cards' running times, which the log does not keep). A log without the places
// resumes as before.
func TestResumedReplyKeepsItsOrder(t *testing.T) {
	h := newHarness(t, "agentic", 80, 40)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	w := sessionlog.Later(path, nil)
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
	resumed := resumedScreen(h.cfg, log.Messages)
	want := tookOnCard.ReplaceAllString(transcriptRows(t, live), "")
	if got := transcriptRows(t, resumed); got != want {
		t.Fatalf("the resumed transcript differs from the live one\nlive:\n%s\nresumed:\n%s", want, got)
	}
	inOrder(t, want, "Let me look", "✓ done · list_dir", "The listing is", "✓ done · list_dir", "So both")
	golden.RequireEqual(t, []byte(resumed))

	// The log is written as parts; the same reply logged by a version before parts (its
	// cards' places in text_after) resumes in the same order, and one logged before cards had
	// places as it always did: the text, then the cards.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"parts":[`) || strings.Contains(string(data), "text_after") {
		t.Fatalf("the log is not written as parts:\n%s", data)
	}
	old, err := os.ReadFile(beforeParts)
	if err != nil {
		t.Fatal(err)
	}
	if log, err = sessionlog.Read(beforeParts); err != nil {
		t.Fatal(err)
	}
	if got := resumedScreen(h.cfg, log.Messages); got != resumed {
		t.Fatalf("the log written before parts resumes differently\nnow:\n%s\nbefore parts:\n%s", resumed, got)
	}
	older := regexp.MustCompile(`"text_after":\[[0-9,]*\],`).ReplaceAll(old, nil)
	if len(older) == len(old) {
		t.Fatal("the log written before parts keeps no places")
	}
	oldPath := filepath.Join(t.TempDir(), "old.jsonl")
	if err := os.WriteFile(oldPath, older, 0o600); err != nil {
		t.Fatal(err)
	}
	if log, err = sessionlog.Read(oldPath); err != nil {
		t.Fatal(err)
	}
	inOrder(t, transcriptRows(t, resumedScreen(h.cfg, log.Messages)), "Let me look", "The listing is", "So both", "✓ done · list_dir", "✓ done · list_dir")
}

// beforeParts is the log of the agentic scenario as the version before parts wrote it.
const beforeParts = "../sessions/sessionlog/testdata/before-parts.jsonl"

// resumedScreen is the first screen of a new model resuming history, 80x40.
func resumedScreen(cfg chat.Config, history []wire.Message) string {
	m := New(Options{Chat: chat.New(cfg, history), Styles: view.PlainStyles(),
		Footer: view.Footer{Endpoint: "http://fixtures.test/v1", Model: "agentic"},
		Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	return m.View().Content
}

// inOrder fails unless each of texts is in screen after the one before it.
func inOrder(t *testing.T, screen string, texts ...string) {
	t.Helper()
	rest := screen
	for _, next := range texts {
		at := strings.Index(rest, next)
		if at < 0 {
			t.Fatalf("no %q where expected in the order %q:\n%s", next, texts, screen)
		}
		rest = rest[at+len(next):]
	}
}
