package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/sessions"
)

func tenThousandSessions() []sessions.Meta {
	all := make([]sessions.Meta, 10000)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range all {
		all[i] = sessions.Meta{ID: fmt.Sprintf("20260101-000000-%06x", i), Title: fmt.Sprintf("A conversation about topic number %d and more", i),
			Model: "gpt-4o-mini", Updated: t0.Add(time.Duration(i) * time.Hour), Turns: i % 40}
	}
	return all
}

// BenchmarkSessionPicker10000 is Ctrl+S over 10,000 saved conversations: "open" is the key
// and the first frame (drawn before the index is read), "listed" the list arriving and the
// frame that shows it. Reading the index is model/sessions BenchmarkList10000.
func BenchmarkSessionPicker10000(b *testing.B) {
	all := tenThousandSessions()
	h := newHarness(b, "text", 120, 40)
	h.m.ed.convs = &fakeConversations{all: all}
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			h.m.ed.picker.open = false
			h.pending = nil
			h.send(keyCtrlS)
			_ = h.m.View()
		}
	})
	b.Run("listed", func(b *testing.B) {
		for b.Loop() {
			h.m.ed.picker.open = false
			h.pending = nil
			h.send(keyCtrlS)
			h.send(sessionsListedMsg{all: all})
			_ = h.m.View()
		}
	})
}

// A session's label is the one the picker always showed: time, turns right-aligned in three
// columns, title, model, id.
func TestSessionLabelLayout(t *testing.T) {
	for _, turns := range []int{0, 1, 9, 10, 99, 100, 1234, -5} {
		m := sessions.Meta{ID: "20260101-000000-abcdef", Title: "Penguins", Model: "gpt-4o-mini", Turns: turns, Updated: time.Date(2026, 2, 3, 4, 5, 0, 0, time.UTC)}
		word := "turns"
		if turns == 1 {
			word = "turn "
		}
		want := fmt.Sprintf("%s  %3d %s  %s  · %s · %s", m.Updated.Local().Format("2006-01-02 15:04"), turns, word, m.Title, m.Model, m.ID)
		if got := sessionLabel(m); got != want {
			t.Errorf("turns %d: %q, want %q", turns, got, want)
		}
	}
}
