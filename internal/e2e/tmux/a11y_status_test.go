package tmux

import (
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/view/safe"
)

// a11yServer starts the fixture server on 127.0.0.1 port 0 at a quarter of real time, with
// the approval scenario the line mode's own tests use.
func a11yServer(t *testing.T) *fixtureServer {
	t.Helper()
	return startFixturesWith(t, fixtures.Options{Pace: 0.25, Dir: approvalDir})
}

// a11yFixtures starts a11yServer and returns its API root.
func a11yFixtures(t *testing.T) string {
	t.Helper()
	return a11yServer(t).URL + "/v1"
}

// dripsSent waits until the fixture server has written slow-drip's role frame and two drips
// to the latest request:
// then the program has them to read before a key typed next is handled (after the escape
// wait, for Esc).
func dripsSent(t *testing.T, fs *fixtureServer) {
	t.Helper()
	if !testwait.For(t, func() bool { return fs.latestFrames() >= 3 }) {
		t.Fatalf("the server wrote %d frames of slow-drip, want 3", fs.latestFrames())
	}
}

// startLinePane runs the binary with args in dir, in a 120x40 pane whose environment is
// hermeticEnv's without NO_COLOR (line mode must be plain text by itself) plus env
// (VAR=value each).
func startLinePane(t *testing.T, dir string, env []string, args ...string) *pane {
	t.Helper()
	requireTmux(t)
	all := append(withoutVar(hermeticEnv(t), "NO_COLOR"), env...)
	return newProgramPane(t, 120, 40, dir, all, append([]string{phasechatBinary(t)}, args...))
}

// headlessStatuses runs one turn of model at base with the engine alone (a perform.Driver, no
// line mode), and returns the status text at every phase change it goes through, as line
// mode would print it. stopOnText presses Stop as soon as reply text has arrived; toolDone,
// when set, is told of every tool result. This is the independent count the binary's Status
// lines are compared with.
func headlessStatuses(t *testing.T, base, model, dir string, stopOnText bool, toolDone func()) []string {
	t.Helper()
	reg, err := tools.NewRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	c := chat.New(chat.Config{Model: model, Tools: perform.Toolbox(reg)}, nil)
	d := perform.NewDriver(c, &perform.Performer{Client: stream.NewClient(base, ""), Tools: reg}, nil)
	var statuses []string
	last := c.State.Phase
	record := func() {
		if c.State.Phase != last {
			statuses = append(statuses, "Status: "+safe.Line(phase.Status(c.State)))
			last = c.State.Phase
		}
	}
	d.Apply(c.Submit("hello"))
	record()
	giveUp := testwait.After(t)
	for c.State.Phase.Streaming() {
		select {
		case msg := <-d.Results():
			d.Handle(msg)
			if _, ok := msg.(chat.ToolDoneMsg); ok && toolDone != nil {
				toolDone()
			}
		case <-giveUp:
			t.Fatalf("the headless run of %s did not end; statuses so far %q", model, statuses)
		}
		record()
		if stopOnText && c.Entries()[len(c.Entries())-1].Text() != "" {
			d.Apply(c.Stop())
			record()
		}
	}
	d.Wait()
	return statuses
}

// statusLinesOf returns the Status lines of raw terminal output, in order.
func statusLinesOf(raw string) []string {
	var out []string
	for l := range strings.SplitSeq(strings.ReplaceAll(raw, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(l, "Status: ") {
			out = append(out, l)
		}
	}
	return out
}

// expectAppendOnly checks the raw bytes phasechat's terminal received: no ESC byte at all
// (so no colour, cursor movement, erase, title or mode change — the echo of what the test
// typed holds none either), no carriage return except the one before each '\n' (the
// terminal's own newline translation), no backspace; and no Status line with JSON punctuation.
func expectAppendOnly(t *testing.T, raw string) {
	t.Helper()
	if i := strings.IndexByte(raw, 0x1b); i >= 0 {
		t.Fatalf("an ESC byte at offset %d: %q", i, raw[max(0, i-40):min(len(raw), i+40)])
	}
	if i := strings.IndexAny(raw, "\b\x7f"); i >= 0 {
		t.Fatalf("a backspace or DEL at offset %d: %q", i, raw[max(0, i-40):min(len(raw), i+40)])
	}
	for i := range len(raw) {
		if raw[i] == '\r' && (i+1 == len(raw) || raw[i+1] != '\n') {
			t.Fatalf("a carriage return that is not a line end at offset %d: %q", i, raw[max(0, i-40):min(len(raw), i+40)])
		}
	}
	for _, l := range statusLinesOf(raw) {
		if strings.ContainsAny(l, `{}[]"`) {
			t.Errorf("JSON punctuation in %q", l)
		}
	}
}

// TestAccessibleStatusLinesMatchPhaseChanges runs the binary in accessible mode in a real
// terminal for five scenarios and checks that it prints exactly one Status line per phase
// change: the same lines, in the same order, as the phase changes of a headless run of the
// engine over the same server, whose number is also fixed by hand from the scenario files:
//
//   - seed (4): Submit → writing; the lookup frame → working on lookup; the text frame →
//     writing (lookup, not a built-in, fails at once); [DONE] → the follow-up request keeps
//     writing (no change) → its [DONE] → answer ready.
//   - tool-then-text (4): writing; the list_dir frames → working on list_dir; the content
//     delta → writing (list_dir runs meanwhile and ends before [DONE]: the server holds
//     [DONE] back until it has, however slow a loaded machine is); follow-up (no change) →
//     answer ready.
//   - parallel-tools (4): writing; working on now (list_dir and read_file only change the
//     tool name within streaming-tool: no Status line); the follow-up → writing; answer ready.
//   - error-frame (2): writing; the error object → the error with Retry.
//   - slow-drip + Esc (2): writing; Esc once the server has sent two drips → stopped.
//
// The raw output is append-only text: see expectAppendOnly. The terminal is restored.
func TestAccessibleStatusLinesMatchPhaseChanges(t *testing.T) {
	for _, tc := range []struct {
		model     string
		byHand    int
		esc       bool
		envSwitch bool   // ACCESSIBLE=1 instead of --accessible
		endsFirst string // a tool whose end the server waits for before [DONE]
		last      string
	}{
		{"seed", 4, false, true, "", "Status: Answer ready."},
		{"tool-then-text", 4, false, false, "list_dir", "Status: Answer ready."},
		{"parallel-tools", 4, false, false, "", "Status: Answer ready."},
		{"error-frame", 2, false, false, "", "Retry is available: Enter retries, Tab goes to the composer."},
		{"slow-drip", 2, true, false, "", "Status: Stopped. The partial reply is kept."},
	} {
		t.Run(tc.model, func(t *testing.T) {
			t.Parallel()
			requireTmux(t)
			fs := a11yServer(t)
			base := fs.URL + "/v1"
			dir := t.TempDir()
			var headlessToolDone atomic.Bool
			if tc.endsFirst != "" {
				fs.holdDone(headlessToolDone.Load)
			}
			want := headlessStatuses(t, base, tc.model, dir, tc.esc, func() { headlessToolDone.Store(true) })
			if len(want) != tc.byHand {
				t.Fatalf("the headless run changed phase %d times, by hand %d: %q", len(want), tc.byHand, want)
			}
			args := []string{"--base-url", base, "--model", tc.model}
			var env []string
			if tc.envSwitch {
				env = []string{"ACCESSIBLE=1"}
			} else {
				args = append(args, "--accessible")
			}
			p := startLinePane(t, dir, env, args...)
			if tc.endsFirst != "" {
				fs.holdDone(func() bool {
					raw := p.raw()
					return strings.Contains(raw, "Tool: "+tc.endsFirst+" done in ") || strings.Contains(raw, "Tool: "+tc.endsFirst+" failed")
				})
			}
			p.expect("You: ")
			p.typeLine("hello")
			if tc.esc {
				p.expect("Status: Writing a reply.")
				dripsSent(t, fs)
				p.keys("Escape")
				p.expect("Assistant: drip1 drip2")
			}
			p.expect(tc.last)
			if tc.model == "error-frame" {
				p.keys("C-d") // Retry has the focus: Ctrl+D quits from there
			} else {
				p.expect("You: ")
				p.keys("C-d")
			}
			p.exit("0")
			raw := p.raw()
			if fs.gateMissed.Load() {
				t.Fatalf("[DONE] waited half the test's patience for %s to end: it did not run while the stream was open; the terminal received:\n%s", tc.endsFirst, raw)
			}
			if got := statusLinesOf(raw); !reflect.DeepEqual(got, want) {
				t.Fatalf("status lines\n%q\nwant (the headless run's phase changes)\n%q\nthe terminal received:\n%s", got, want, raw)
			}
			expectAppendOnly(t, raw)
		})
	}
}
