package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// transcriptRows is the transcript part of the screen: the rows above the rule.
func (h *harness) transcriptRows() string {
	rows := strings.Split(h.m.View().Content, "\n")
	for i, r := range rows {
		if strings.HasPrefix(r, "───") {
			return strings.Join(rows[:i], "\n")
		}
	}
	h.t.Fatal("no rule on the screen")
	return ""
}

// PgUp and the mouse wheel scroll the transcript while a reply streams; the lines being read
// stay in place as the reply grows below them, the cursor stays on Stop, and scrolling back
// down to the end follows the tail again.
func TestScrollKeepsTheReadersPlace(t *testing.T) {
	h := newHarness(t, "long", 80, 24)
	h.submit("count")
	for range 300 {
		h.feedStream()
	}
	tail := h.transcriptRows()
	h.send(keyPgUp)
	reading := h.transcriptRows()
	if reading == tail {
		t.Fatal("PgUp did not scroll")
	}
	for range 100 {
		h.feedStream()
	}
	h.expect("streaming while scrolled up", writing())
	if got := h.transcriptRows(); got != reading {
		t.Fatalf("the lines being read moved:\n%s\n---- was ----\n%s", got, reading)
	}
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	wheeled := h.transcriptRows()
	if wheeled == reading || !strings.Contains(wheeled, strings.Split(reading, "\n")[0]) {
		t.Fatalf("the wheel did not scroll up by a few lines:\n%s", wheeled)
	}
	for h.m.linesUp() > 0 {
		h.send(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	for range 7 {
		h.feedStream()
	}
	entries := h.m.Chat().Entries()
	reply := strings.Split(strings.TrimSpace(entries[len(entries)-1].Text()), "\n")
	rows := strings.Split(strings.TrimRight(h.transcriptRows(), "\n "), "\n")
	if last := strings.TrimSpace(rows[len(rows)-1]); last != reply[len(reply)-1] {
		t.Fatalf("back at the end, the last row is %q, not the reply's last line %q", last, reply[len(reply)-1])
	}
}

// Ctrl+O expands the latest tool card: its arguments decoded as key: value (never the JSON)
// and its result in full; again folds it.
func TestCtrlOExpandsTheLatestCard(t *testing.T) {
	h := newHarness(t, "seed", 80, 24)
	h.submit("find the headings")
	h.feedAll()
	ctrlO := tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	h.send(ctrlO)
	h.expect("expanded", answered())
	got := h.transcriptRows()
	if !strings.Contains(got, "arguments:") || !strings.Contains(got, "q: home") || !strings.Contains(got, "result:") {
		t.Fatalf("the card is not expanded:\n%s", got)
	}
	h.send(ctrlO)
	if strings.Contains(h.transcriptRows(), "arguments:") {
		t.Fatal("a second Ctrl+O did not fold the card")
	}
}
