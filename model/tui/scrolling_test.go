package tui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

var (
	keyPgDown = tea.KeyPressMsg{Code: tea.KeyPgDown}
	keyHome   = tea.KeyPressMsg{Code: tea.KeyHome}
	keyEnd    = tea.KeyPressMsg{Code: tea.KeyEnd}
	keyF1     = tea.KeyPressMsg{Code: tea.KeyF1}
)

// scrolledRule matches the rule's indicator while scrolled up and captures the line count.
var scrolledRuleText = regexp.MustCompile(`^─── ↓ ([0-9,]+) more lines? · (End|Ctrl\+End) follows ─*$`)

// below is the indicator's count of lines below the window, or -1 with no indicator.
func (h *harness) below() int {
	h.t.Helper()
	for _, r := range strings.Split(h.m.View().Content, "\n") {
		if m := scrolledRuleText.FindStringSubmatch(r); m != nil {
			n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			if err != nil {
				h.t.Fatal(err)
			}
			return n
		}
	}
	return -1
}

// lastReplyLine is the last non-blank line of the newest entry's text.
func (h *harness) lastReplyLine() string {
	entries := h.m.Chat().Entries()
	lines := strings.Split(strings.TrimSpace(entries[len(entries)-1].Text()), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// bottomRow is the transcript's last non-blank row.
func (h *harness) bottomRow() string {
	rows := strings.Split(strings.TrimRight(h.transcriptRows(), "\n "), "\n")
	return strings.TrimSpace(rows[len(rows)-1])
}

// While a reply streams, a page up and a page down is back at the reply's newest line and
// follows it again, however much arrived meanwhile; the indicator says how far the end is
// while scrolled up, its count growing with the reply, and is gone when following.
func TestPageUpThenDownFollowsTheTail(t *testing.T) {
	h := newHarness(t, "long", 80, 24)
	h.submit("count")
	for range 200 {
		h.feedStream()
	}
	if n := h.below(); n != -1 {
		t.Fatalf("an indicator while following the tail: %d", n)
	}
	h.send(keyPgUp)
	first := h.below()
	if first <= 0 {
		t.Fatalf("no indicator after PgUp:\n%s", h.m.View().Content)
	}
	for range 120 {
		h.feedStream()
	}
	if grown := h.below(); grown <= first {
		t.Fatalf("the indicator did not count the lines that arrived: %d, then %d", first, grown)
	}
	h.send(keyPgDown)
	if n := h.below(); n != -1 || h.m.linesUp() != 0 {
		t.Fatalf("PgUp then PgDn is %d lines above the end (indicator %d)", h.m.linesUp(), n)
	}
	for range 5 {
		h.feedStream()
	}
	if got, want := h.bottomRow(), h.lastReplyLine(); got != want {
		t.Fatalf("not following: the last row is %q, the reply's newest line %q", got, want)
	}
}

// Home shows the transcript's first row; End goes back to the tail and follows it. With text
// in the composer Home and End move in its line, and Ctrl+Home and Ctrl+End scroll; the
// indicator names the key that follows.
func TestHomeAndEnd(t *testing.T) {
	h := newHarness(t, "long", 80, 24)
	h.submit("count")
	for range 300 {
		h.feedStream()
	}
	h.send(keyHome)
	if top := strings.SplitN(h.transcriptRows(), "\n", 2)[0]; top != "› count" {
		t.Fatalf("Home: the first row is %q, not the prompt", top)
	}
	if h.below() <= 0 {
		t.Fatal("no indicator at the top")
	}
	h.send(keyEnd)
	if h.m.linesUp() != 0 || h.below() != -1 {
		t.Fatalf("End did not follow: %d lines up", h.m.linesUp())
	}
	h.feedStream()
	if got, want := h.bottomRow(), h.lastReplyLine(); got != want {
		t.Fatalf("after End the last row is %q, not %q", got, want)
	}

	h.feedAll()
	h.typeText("abc")
	h.send(keyHome)
	if h.m.linesUp() != 0 {
		t.Fatal("Home scrolled while the composer holds text")
	}
	h.typeText("x")
	if got := h.m.composer.Value(); got != "xabc" {
		t.Fatalf("Home did not move to the line's start: %q", got)
	}
	h.send(tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl})
	if h.m.linesUp() == 0 {
		t.Fatal("Ctrl+Home did not scroll")
	}
	if !strings.Contains(h.m.View().Content, "Ctrl+End follows") {
		t.Fatalf("the indicator names a key that does not follow:\n%s", h.m.View().Content)
	}
	h.send(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	if h.m.linesUp() != 0 {
		t.Fatal("Ctrl+End did not follow")
	}
}

// PgDn at the end follows; the mouse wheel follows the same rule as the keys: scrolled back
// down to where it left the tail, it follows again.
func TestWheelAndPgDnAtTheEndFollow(t *testing.T) {
	h := newHarness(t, "long", 80, 24)
	h.submit("count")
	for range 200 {
		h.feedStream()
	}
	h.send(keyPgDown)
	if h.m.linesUp() != 0 {
		t.Fatal("PgDn at the end scrolled")
	}
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if h.m.linesUp() == 0 {
		t.Fatal("the wheel did not scroll up")
	}
	for range 50 {
		h.feedStream()
	}
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if h.m.linesUp() != 0 {
		t.Fatalf("the wheel back down is %d lines above the end", h.m.linesUp())
	}
}

// The scrolled-up indicator at 80 columns, mid-reply.
func TestScrolledUpIndicatorGolden(t *testing.T) {
	h := newHarness(t, "long", 80, 24)
	h.submit("count")
	for range 100 {
		h.feedStream()
	}
	h.send(keyPgUp)
	h.send(keyPgUp)
	golden.RequireEqual(t, []byte(h.m.View().Content))
}
