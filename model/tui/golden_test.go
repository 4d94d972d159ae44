package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/phase"
)

// goldenScenes bring a model to each screen docs/phases.md names, through its own Update, and say
// what the screen must show there.
var goldenScenes = []struct {
	name     string
	scenario string
	drive    func(h *harness)
	want     want
}{
	{"idle", "text", func(h *harness) {}, idle()},
	{"streaming-text", "text", func(h *harness) {
		h.submit("hello")
		for range 6 {
			h.feedStream()
		}
	}, writing()},
	{"streaming-tool", "seed", func(h *harness) {
		h.submit("find the headings")
		h.feedStream()
		h.feedStream()
	}, working("lookup")},
	{"asking-approval", "note", func(h *harness) {
		h.submit("note: buy milk")
		feedUntilQuiet(h)
	}, asking("Allow write_note with text=buy milk? y runs it, n declines, A allows write_note for this session. Esc stops.")},
	{"error-retry-focused", "error-frame", func(h *harness) {
		h.submit("hello")
		h.feedAll()
	}, failed("The server sent an error: The server had an error while processing your request. Sorry about that! " + retryHint)},
	{"error-after-tab", "error-frame", func(h *harness) {
		h.submit("hello")
		h.feedAll()
		h.send(keyTab)
		h.typeText("try again")
	}, failed("The server sent an error: The server had an error while processing your request. Sorry about that! " + retryHint).inComposer()},
	{"complete", "seed", func(h *harness) {
		h.submit("find the headings")
		h.feedAll()
	}, answered()},
	{"complete-cut-off", "length", func(h *harness) {
		h.submit("give me three reasons")
		h.feedAll()
	}, want{phase.Complete, "The reply was cut off: the model reached its output limit (finish_reason length).", true, false, false, "composer"}},
	{"complete-after-stop", "text", func(h *harness) {
		h.submit("hello")
		for range 5 {
			h.feedStream()
		}
		h.send(keyEsc)
	}, stopped()},
}

// TestGolden keeps the whole screen of every phase at 80 and 120 columns, in plain styles (no
// escape bytes in the files), and checks status, controls and cursor on each. Run
// `go test ./model -run TestGolden -update` after a deliberate change and read the diff.
func TestGolden(t *testing.T) {
	for _, sc := range goldenScenes {
		for _, width := range []int{80, 120} {
			t.Run(fmt.Sprintf("%s/%d", sc.name, width), func(t *testing.T) {
				h := newHarness(t, sc.scenario, width, 24)
				sc.drive(h)
				h.expect(sc.name, sc.want)
				golden.RequireEqual(t, []byte(h.m.View().Content))
			})
		}
	}
}

// TestHelpKeepsItsFirstKeysAt80Columns: in every phase, at 80 columns, the help line shows
// every live key of the first ranks (quitting and the key list among them) uncut, and no key
// that does nothing now (no scrolling while the transcript fits).
func TestHelpKeepsItsFirstKeysAt80Columns(t *testing.T) {
	for _, sc := range goldenScenes {
		h := newHarness(t, sc.scenario, 80, 24)
		sc.drive(h)
		rows := strings.Split(h.m.View().Content, "\n")
		help := rows[len(rows)-2]
		if strings.Contains(help, "…") {
			t.Errorf("%s: the help line is cut: %q", sc.name, help)
		}
		for _, k := range h.m.frame().Help {
			if k.Rank <= 1 && !strings.Contains(help, k.Keys+" "+k.Does) {
				t.Errorf("%s: the help line hides %q: %q", sc.name, k.Keys, help)
			}
		}
		if !strings.Contains(help, "ctrl+c quit") || !strings.Contains(help, " keys") {
			t.Errorf("%s: the help line hides quitting or the key list: %q", sc.name, help)
		}
		if strings.Contains(help, "pgup") && h.maxScroll() == 0 {
			t.Errorf("%s: the help line offers scrolling with nothing to scroll: %q", sc.name, help)
		}
	}
}
