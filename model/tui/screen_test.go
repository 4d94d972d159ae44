package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
)

// want is what one step must leave on the screen: the table of docs/phases.md, written out
// here rather than taken from phase.ControlsFor, so the model, the phase package and the view
// are all checked against it.
type want struct {
	phase    phase.Phase
	status   string
	composer bool   // the composer is enabled (its label says so; keys reach it)
	stop     bool   // [ Stop · Esc ] is shown
	retry    bool   // [ Retry · Enter ] is shown
	cursor   string // the real cursor's control: "stop", "retry" or "composer"
}

const (
	stopLabel  = "[ Stop · Esc ]"
	retryLabel = "[ Retry · Enter ]"
	retryHint  = "Retry is available: Enter retries, Tab goes to the composer."
)

func idle() want {
	return want{phase.Idle, "Type a message and press Enter to send. Ctrl+C quits.", true, false, false, "composer"}
}
func writing() want {
	return want{phase.StreamingText, "Writing a reply. Esc stops generating.", false, true, false, "stop"}
}
func working(tool string) want {
	return want{phase.StreamingTool, "Working on " + tool + ". Esc stops generating.", false, true, false, "stop"}
}
func asking(question string) want {
	return want{phase.StreamingTool, question, false, true, false, "stop"}
}
func failed(status string) want { return want{phase.Error, status, true, false, true, "retry"} }
func answered() want            { return want{phase.Complete, "Answer ready.", true, false, false, "composer"} }
func stopped() want {
	return want{phase.Complete, "Stopped. The partial reply is kept.", true, false, false, "composer"}
}

// inComposer is w with the cursor moved to the composer (Tab in the error phase).
func (w want) inComposer() want { w.cursor = "composer"; return w }

// expect checks the model's phase and the screen after step (see checkScreen).
func (h *harness) expect(step string, w want) {
	h.t.Helper()
	checkScreen(h.t, h.m, step, w)
}

// checkScreen checks m's phase and screen after step: status text, controls, cursor, the
// screen's shape, and that no tool argument JSON reached it.
func checkScreen(t testing.TB, m *Model, step string, w want) {
	t.Helper()
	st := m.Chat().State
	if st.Phase != w.phase {
		t.Fatalf("%s: phase %s, want %s", step, st.Phase, w.phase)
	}
	if got := phase.Status(st); got != w.status {
		t.Fatalf("%s: status %q, want %q", step, got, w.status)
	}
	v := m.View()
	v.Content = ansi.Strip(v.Content) // the checks read text; colour tests pass too
	rows := strings.Split(v.Content, "\n")
	if len(rows) != m.height {
		t.Fatalf("%s: %d rows, want %d", step, len(rows), m.height)
	}
	for i, r := range rows {
		if ansi.StringWidth(r) > m.width {
			t.Fatalf("%s: row %d is wider than %d: %q", step, i, m.width, r)
		}
	}
	label := labelRow(rows)
	if label < 0 {
		t.Fatalf("%s: no composer label on screen:\n%s", step, v.Content)
	}
	onScreen := w.status
	if w.phase == phase.Error && w.cursor == "composer" { // the hint says what Enter does now
		onScreen = strings.TrimSuffix(w.status, retryHint) + phase.ComposerHint
	}
	if got := statusText(rows, label); got != onScreen && !shortened(got, onScreen) {
		t.Fatalf("%s: the screen's status reads %q, want %q", step, got, onScreen)
	}
	if got := strings.Contains(v.Content, stopLabel); got != w.stop {
		t.Fatalf("%s: Stop shown %v, want %v:\n%s", step, got, w.stop, v.Content)
	}
	if got := retryControl.MatchString(v.Content); got != w.retry {
		t.Fatalf("%s: Retry shown %v, want %v:\n%s", step, got, w.retry, v.Content)
	}
	if enabled := rows[label] == "Message"; enabled != w.composer {
		t.Fatalf("%s: composer label %q, want enabled=%v", step, rows[label], w.composer)
	}
	if takes := m.composerEnabled(); takes != w.composer {
		t.Fatalf("%s: the model's composer enabled %v, want %v", step, takes, w.composer)
	}
	if fresh := m.composer.View(); m.composerView != fresh {
		t.Fatalf("%s: the composer drawn is stale:\n%q\nwant\n%q", step, m.composerView, fresh)
	}
	checkCursor(t, m, step, w.cursor, rows, label)
	checkNoArgumentJSON(t, m, step, v.Content)
}

// retryControl matches the Retry control in each of its forms: "[ Retry · Enter ]", and with
// an automatic retry pending "[ Retry in 17s · Enter now ]" or "[ Retrying once… · Enter now ]".
var retryControl = regexp.MustCompile(`\[ Retry(?: · Enter| in \d+s · Enter now|ing once… · Enter now) \]`)

// labelRow is the row of the composer's label ("Message…"), counted from the bottom.
func labelRow(rows []string) int {
	for i := len(rows) - 1; i >= 0; i-- {
		if strings.HasPrefix(rows[i], "Message") {
			return i
		}
	}
	return -1
}

// statusText is the status block above the label (under the transcript's rule), its rows
// joined and the control's label removed.
func statusText(rows []string, label int) string {
	top := label
	for top > 0 && !strings.HasPrefix(rows[top-1], "───") {
		top--
	}
	var parts []string
	for _, r := range rows[top:label] {
		r = retryControl.ReplaceAllString(strings.Replace(r, stopLabel, "", 1), "")
		if r = strings.TrimSpace(r); r != "" {
			parts = append(parts, r)
		}
	}
	return strings.Join(parts, " ")
}

// checkCursor checks the real cursor sits on the control named on.
func checkCursor(t testing.TB, m *Model, step, on string, rows []string, label int) {
	t.Helper()
	c := m.View().Cursor // rows are stripped of escapes: columns are cells
	if c == nil {
		t.Fatalf("%s: no cursor; want it on %s", step, on)
	}
	if c.Y < 0 || c.Y >= len(rows) {
		t.Fatalf("%s: cursor row %d is off the screen", step, c.Y)
	}
	row := rows[c.Y]
	switch on {
	case "stop", "retry":
		word := map[string]string{"stop": "Stop", "retry": "Retry"}[on]
		if got := ansi.Cut(row, c.X, c.X+len(word)); got != word {
			t.Fatalf("%s: cursor (%d,%d) is on %q, want %q; row %q", step, c.X, c.Y, got, word, row)
		}
	case "composer":
		line := strings.Split(m.composer.Value(), "\n")
		wantX := ansi.StringWidth(m.composer.Prompt) + ansi.StringWidth(line[len(line)-1])
		if c.Y != label+len(line) || c.X != wantX {
			t.Fatalf("%s: cursor (%d,%d), want the composer's end (%d,%d); row %q", step, c.X, c.Y, wantX, label+len(line), row)
		}
	default:
		t.Fatalf("unknown control %q", on)
	}
}

// checkNoArgumentJSON fails when a tool call's argument text, or any JSON object opening,
// appears on the screen or in the transcript's text (tool frames never reach the
// transcript; cards show a key=value summary).
func checkNoArgumentJSON(t testing.TB, m *Model, step, content string) {
	t.Helper()
	if strings.Contains(content, `{"`) {
		t.Fatalf("%s: argument JSON on the screen:\n%s", step, content)
	}
	for _, e := range m.Chat().Entries() {
		if strings.Contains(e.Text(), `{"`) {
			t.Fatalf("%s: argument JSON in the transcript text %q", step, e.Text())
		}
		for _, c := range e.Cards() {
			if len(c.Args()) > 2 && strings.Contains(content, c.Args()) {
				t.Fatalf("%s: the arguments of %s are on the screen", step, c.Name())
			}
		}
	}
}

// shortened reports whether got is want with the middle cut out and marked "…": the view
// shortens a long error's reason (keeping the Retry hint) or cuts any other status at its end.
func shortened(got, want string) bool {
	head, tail, ok := strings.Cut(got, "…")
	return ok && strings.HasPrefix(want, head) && strings.HasSuffix(want, strings.TrimPrefix(tail, "."))
}
