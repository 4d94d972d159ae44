package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/chat"
)

// statusRow is the screen's status line: the row under the rule.
func (h *harness) statusRow() string {
	rows := strings.Split(h.m.View().Content, "\n")
	for i, r := range rows {
		if strings.HasPrefix(r, "────") && i+1 < len(rows) {
			return rows[i+1]
		}
	}
	return ""
}

// TestTurnTallyGolden: under the turn's last reply, one dim line names the model, the tokens in
// (cached among them) and out (reasoning among them) and the cost at the model's price.
func TestTurnTallyGolden(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	now := start
	h := newHarness(t, "tally", 100, 16, func(c *chat.Config) {
		c.Clock = func() time.Time { return now }
		c.Budget = budget.Model{Window: 128_000, Price: &budget.Price{In: 3, Out: 15, CachedIn: 0.3}}
	})
	h.submit("count")
	h.feedStream()
	now = start.Add(2300 * time.Millisecond)
	h.feedAll()
	h.expect("answered", answered())
	screen := h.m.View().Content
	if !strings.Contains(screen, "tally · 2.3s · 1,200 in (1,000 cached) · 340 out (120 reasoning) · $0.0060") {
		t.Fatalf("the tally line is missing:\n%s", screen)
	}
	golden.RequireEqual(t, []byte(screen))
}

// While a turn runs the status line counts its seconds and tokens, once a second: "~" until the
// server reports the reply's usage. The counters go with the turn.
func TestLiveCountersOnTheStatusLine(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	h := newHarness(t, "tally", 100, 16, func(c *chat.Config) { c.Clock = func() time.Time { return start } })
	h.submit("count")
	h.feedStream()
	h.feedStream() // "Counted." (8 bytes: ~2 tokens)
	if row := h.statusRow(); strings.Contains(row, "token") {
		t.Fatalf("counters before the first second: %q", row)
	}
	h.send(silenceTick{gen: h.m.timers.silenceGen, at: start.Add(3 * time.Second)})
	if row := h.statusRow(); !strings.Contains(row, "3s · ~2 tokens") {
		t.Fatalf("the status line lacks the live counters: %q", row)
	}
	h.feedAll()
	if row := h.statusRow(); strings.Contains(row, "token") || strings.Contains(row, "3s") {
		t.Fatalf("the counters outlived the turn: %q", row)
	}
}
