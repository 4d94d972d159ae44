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

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/sessions/sessionlog"
	"github.com/phasechat/phasechat/view"
)

// timed is a log line's time member; sealed its checksum member.
var (
	timed  = regexp.MustCompile(`"time":"[^"]*"`)
	sealed = regexp.MustCompile(`,"crc":"[0-9a-f]{8}"`)
)

// retime gives each line of the log at path the time of its turn's start when it is a user
// message, took later otherwise, so that the log says each turn took that long.
func retime(t *testing.T, path string, start time.Time, took time.Duration) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for i, line := range lines {
		at := start.Add(took)
		if strings.Contains(line, `"role":"user"`) {
			at = start
		}
		line = sealed.ReplaceAllString(line, "")
		lines[i] = timed.ReplaceAllString(line, `"time":"`+at.UTC().Format(time.RFC3339Nano)+`"`)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A resumed reply has the tally line its turn had live: the model, how long the turn took,
// its tokens and its cost, rebuilt from the log's usage records and times.
func TestResumedReplyKeepsItsTally(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	now := start
	priced := func(c *chat.Config) {
		c.Budget = budget.Model{Window: 128_000, Price: &budget.Price{In: 3, Out: 15, CachedIn: 0.3}}
	}
	h := newHarness(t, "tally", 100, 20, priced, func(c *chat.Config) { c.Clock = func() time.Time { return now } })
	path := filepath.Join(t.TempDir(), "session.jsonl")
	w := sessionlog.Later(path, nil)
	h.m.log = w
	w.Head(sessionlog.Header{Model: "tally"})
	for _, q := range []string{"count", "again"} {
		now = start
		h.submit(q)
		h.feedStream()
		now = start.Add(2300 * time.Millisecond)
		h.feedAll()
	}
	live := transcriptRows(t, h.m.View().Content)
	if strings.Count(live, "tally · 2.3s · 1,200 in (1,000 cached) · 340 out (120 reasoning) · $0.0060") != 2 {
		t.Fatalf("the live tally lines are missing:\n%s", live)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	retime(t, path, start, 2300*time.Millisecond)
	log, err := sessionlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := h.cfg
	priced(&cfg)
	engine := chat.New(cfg, log.Messages)
	engine.SetTallies(log.Tallies)
	m := New(Options{Chat: engine, Styles: view.PlainStyles(),
		Footer: view.Footer{Endpoint: "http://fixtures.test/v1", Model: "tally"},
		Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	resumed := m.View().Content
	if got := transcriptRows(t, resumed); got != live {
		t.Fatalf("the resumed transcript differs from the live one\nlive:\n%s\nresumed:\n%s", live, got)
	}
	golden.RequireEqual(t, []byte(resumed))
}
