package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"
)

func helpKeys(h *harness) []string {
	var out []string
	for _, k := range h.m.frame().Help {
		out = append(out, k.Keys)
	}
	return out
}

// The help lists only keys that do something now: no scrolling while everything fits, no
// expanding without a card or reasoning, no regenerating before a reply; Ctrl+J while there
// is a message to type.
func TestHelpListsOnlyLiveKeys(t *testing.T) {
	h := newHarness(t, "seed", 80, 24)
	idle := helpKeys(h)
	for _, dead := range []string{"pgup/pgdn", "home/end", "ctrl+o", "ctrl+r", "esc", "ctrl+y"} {
		if slices.Contains(idle, dead) {
			t.Errorf("idle with an empty transcript lists %s: %v", dead, idle)
		}
	}
	for _, live := range []string{"enter", "ctrl+j", "ctrl+c", "?"} {
		if !slices.Contains(idle, live) {
			t.Errorf("idle does not list %s: %v", live, idle)
		}
	}
	h.submit("find the headings")
	h.feedAll()
	done := helpKeys(h)
	for _, live := range []string{"ctrl+o", "ctrl+r", "ctrl+y"} {
		if !slices.Contains(done, live) {
			t.Errorf("after a reply with a card the help lacks %s: %v", live, done)
		}
	}
	if slices.Contains(done, "pgup/pgdn") {
		t.Errorf("the transcript fits, yet the help offers scrolling: %v", done)
	}

	long := newHarness(t, "long", 80, 24)
	long.submit("count")
	for len(long.pending) > 0 {
		long.send(long.pending[0])
		long.pending = long.pending[1:]
	}
	if keys := helpKeys(long); !slices.Contains(keys, "pgup/pgdn") || !slices.Contains(keys, "home/end") || slices.Contains(keys, "ctrl+o") {
		t.Errorf("a long reply without cards: %v", keys)
	}
	long.typeText("draft")
	if keys := helpKeys(long); !slices.Contains(keys, "ctrl+home/end") || !slices.Contains(keys, "f1") || slices.Contains(keys, "?") {
		t.Errorf("with text in the composer: %v", keys)
	}
}

// ? (with an empty composer) and F1 (always) open the key overlay over the transcript, listing
// every key of the key map with what it does; Esc, ? or F1 close it. Esc closing it does not
// stop a streaming reply; with text in the composer ? is typed.
func TestKeyOverlay(t *testing.T) {
	h := newHarness(t, "text", 80, 60)
	h.send(keyRune('?'))
	screen := h.transcriptRows()
	if !strings.Contains(screen, "Keys — Esc, ? or F1 closes this list") {
		t.Fatalf("? did not open the key list:\n%s", screen)
	}
	words := strings.Join(strings.Fields(screen), " ") // a description wrapped over rows reads on
	for _, k := range h.m.allKeys() {
		if !strings.Contains(words, k.Keys+" "+k.Does) {
			t.Errorf("the key list lacks %s (%s):\n%s", k.Keys, k.Does, screen)
		}
	}
	h.send(keyRune('?'))
	if strings.Contains(h.transcriptRows(), "Keys —") {
		t.Fatal("? did not close the key list")
	}

	h.submit("hello")
	h.feedStream()
	h.send(keyF1)
	h.send(keyEsc)
	if strings.Contains(h.transcriptRows(), "Keys —") {
		t.Fatal("Esc did not close the key list")
	}
	h.expect("Esc closed the list, not the reply", writing())
	h.feedAll()

	h.typeText("why")
	h.send(keyRune('?'))
	if got := h.m.composer.Value(); got != "why?" || strings.Contains(h.transcriptRows(), "Keys —") {
		t.Fatalf("? with text in the composer: %q", got)
	}
	h.send(keyF1)
	if !strings.Contains(h.transcriptRows(), "Keys —") {
		t.Fatal("F1 did not open the key list")
	}
	h.send(keyF1)
	if strings.Contains(h.transcriptRows(), "Keys —") {
		t.Fatal("F1 did not close the key list")
	}
}

// A short screen shows what fits and says how many keys are left; PgDn and ↓ scroll the list
// to them, PgUp and ↑ back, and the composer's history keys wait while the list is open.
func TestKeyOverlayOnAShortScreen(t *testing.T) {
	h := newHarness(t, "text", 80, 16)
	h.send(keyF1)
	rows := strings.Split(h.transcriptRows(), "\n")
	if last := rows[len(rows)-1]; !strings.Contains(last, "more keys (pgdn or ↓)") {
		t.Fatalf("the overlay's last row: %q", last)
	}
	keys := h.m.allKeys()
	for range len(keys) {
		if strings.Contains(h.transcriptRows(), "  f1 ") {
			break
		}
		h.send(keyPgDown)
	}
	if !strings.Contains(h.transcriptRows(), "  f1 ") || strings.Contains(h.transcriptRows(), "  y ") {
		t.Fatalf("PgDn did not reach the last key:\n%s", h.transcriptRows())
	}
	for range len(keys) {
		h.send(tea.KeyPressMsg{Code: tea.KeyUp})
	}
	if !strings.Contains(h.transcriptRows(), "  y ") {
		t.Fatalf("↑ did not go back to the first key:\n%s", h.transcriptRows())
	}
}
