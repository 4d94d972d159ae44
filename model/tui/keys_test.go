package tui

import (
	"maps"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
)

// Esc cancels the request for real (its HTTP context), keeps the partial reply, and the
// messages of the stopped request that arrive afterwards — a frame already read, a late tool
// result — are dropped, also once the next request is streaming.
func TestEscStopsAndStaleMessagesAreDropped(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello")
	first := h.feedStream() // role only
	h.feedStream()          // "Hello! "
	h.send(keyEsc)
	h.expect("esc", stopped())
	if ctx := h.server.requests()[0].ctx; ctx.Err() == nil {
		t.Fatal("Esc did not cancel the HTTP request")
	}
	reply := h.m.Chat().Entries()[len(h.m.Chat().Entries())-1]
	if reply.Text() != "Hello! " || !strings.Contains(h.m.View().Content, "Stopped — the partial reply is kept.") {
		t.Fatalf("the partial reply is not kept and marked: %+v\n%s", reply, h.m.View().Content)
	}
	screen := h.m.View().Content
	h.feedStream() // "This ", read before Esc
	h.expect("a frame of the stopped request", stopped())
	if h.m.View().Content != screen || reply.Text() != "Hello! " {
		t.Fatalf("a stale frame changed the transcript:\n%s", h.m.View().Content)
	}

	h.submit("again")
	h.expect("a new prompt", writing())
	stale := wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "STALE"}}}
	h.send(chat.StreamMsg{Req: first.Req, Src: first.Src, Update: stale, More: true})
	h.send(chat.ToolDoneMsg{Req: first.Req, CallID: "call_0", Result: phase.ToolResult{Output: "STALE"}})
	h.expect("stale messages while the next request streams", writing())
	h.feedAll()
	h.expect("the new reply", answered())
	if strings.Contains(h.m.View().Content, "STALE") {
		t.Fatalf("a stale message reached the screen:\n%s", h.m.View().Content)
	}
	if got := h.m.Chat().History[len(h.m.Chat().History)-1].Text(); got != "Hello! This is a plain streamed reply, sent one word at a time." {
		t.Fatalf("the new reply is %q", got)
	}
}

// Esc while a tool runs stops it: the card says so, the history answers the call with
// "stopped by the user" (so the next request is valid), and the late result is dropped.
func TestEscDuringToolWork(t *testing.T) {
	h := newHarness(t, "seed", 120, 24)
	h.submit("find the headings")
	for h.feedStream().More {
	}
	h.expect("lookup running", working("lookup"))
	h.send(keyEsc)
	h.expect("esc", stopped())
	h.feedToolDone() // the result the cancelled run produced
	h.expect("late tool result", stopped())
	hist := h.m.Chat().History
	if n := len(hist); n != 3 || hist[2].Role != "tool" || hist[2].Text() != "stopped by the user" {
		t.Fatalf("history after stopping a tool: %+v", hist)
	}
	if !strings.Contains(h.m.View().Content, "stopped by the user") {
		t.Fatalf("the card does not say the tool was stopped:\n%s", h.m.View().Content)
	}
}

// While a request streams, only Esc, scrolling, Ctrl+C and Enter (which queues the draft,
// queue_test.go) act: typing edits the kept draft, and Tab and Ctrl+R neither send it nor
// start a request.
func TestKeysWhileStreamingOnlyEditTheDraft(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello")
	h.feedStream()
	for _, k := range []tea.KeyPressMsg{keyRune('a'), keyTab, keyShiftTab, keyCtrlR, keyRune('y')} {
		if out := h.send(k); len(out) != 0 {
			t.Fatalf("%s while streaming produced %#v", k, out)
		}
		h.expect(k.String()+" while streaming", writing())
	}
	if h.m.composer.Value() != "ay" || len(h.server.requests()) != 1 {
		t.Fatalf("composer %q, %d requests", h.m.composer.Value(), len(h.server.requests()))
	}
}

// A tool with side effects asks first: y runs it, n declines (the model is told), and the
// turn goes on either way.
func TestApproval(t *testing.T) {
	question := "Allow write_note with text=buy milk? y runs it, n declines, A allows write_note for this session. Esc stops."
	for _, answer := range []rune{'y', 'n'} {
		h := newHarness(t, "note", 120, 24)
		h.submit("note: buy milk")
		for h.feedStream().More {
		}
		h.expect("asking", asking(question))
		h.quiet()
		h.send(keyRune(answer))
		if answer == 'y' {
			h.expect("allowed", working("write_note"))
			h.feedToolDone()
		}
		h.expect("answered, follow-up streams", writing())
		h.feedAll()
		h.expect("turn over", answered())
		want := map[rune]string{'y': "saved", 'n': "The user declined to run this tool."}[answer]
		if got := h.m.Chat().History[2].Text(); got != want {
			t.Fatalf("%c: the model was told %q, want %q", answer, got, want)
		}
	}
}

// Ctrl+C quits from every phase, after stopping what runs: the request's context is cancelled
// before tea.Quit's message is produced, and the phase has left streaming.
func TestCtrlCQuitsFromEveryPhase(t *testing.T) {
	setups := map[string]func(h *harness){
		"idle":           func(h *harness) {},
		"streaming-text": func(h *harness) { h.submit("hello"); h.feedStream(); h.feedStream() },
		"streaming-tool": func(h *harness) { h.submit("hello"); h.feedStream() },
		"asking":         func(h *harness) { h.submit("hello"); feedUntilQuiet(h) },
		"error":          func(h *harness) { h.submit("hello"); h.feedAll() },
		"complete":       func(h *harness) { h.submit("hello"); h.feedAll() },
	}
	scenario := map[string]string{"idle": "text", "streaming-text": "text", "streaming-tool": "seed", "asking": "note", "error": "http-500", "complete": "text"}
	for _, name := range slices.Sorted(maps.Keys(setups)) {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, scenario[name], 80, 24)
			setups[name](h)
			if got := h.m.Chat().State.Phase.String(); got != name && !(name == "asking" && h.m.Chat().Asking()) {
				t.Fatalf("set up %s, got %s", name, got)
			}
			next, cmd := h.m.Update(keyCtrlC)
			h.m = next.(*Model)
			if h.m.Chat().State.Phase.Streaming() {
				t.Fatalf("still %s after Ctrl+C", h.m.Chat().State.Phase)
			}
			quit := false
			runCmd(cmd, func(msg tea.Msg) {
				if _, ok := msg.(tea.QuitMsg); !ok {
					return
				}
				quit = true
				for i, r := range h.server.requests() {
					if r.ctx.Err() == nil {
						t.Fatalf("request %d is still open when the program quits", i+1)
					}
				}
			})
			if !quit {
				t.Fatal("Ctrl+C did not quit")
			}
		})
	}
}

// feedUntilQuiet feeds stream messages until the source is exhausted.
func feedUntilQuiet(h *harness) {
	for h.feedStream().More {
	}
}

// The composer is drawn from a copy kept since its last change (a stream never changes it);
// the copy must follow every change: typing, focus moving when a stream starts and ends,
// Tab in the error phase, a resize. In colour, focused and blurred composers differ.
func TestComposerDrawingFollowsItsState(t *testing.T) {
	h := newHarness(t, "flaky", 80, 24)
	h.m.renderer = view.NewRenderer(view.DefaultStyles())
	idleDrawing := h.m.composerView
	h.submit("hello")
	blurred := h.m.composerView
	if blurred == idleDrawing {
		t.Fatal("the composer looks the same focused and blurred; this test cannot see a stale drawing")
	}
	h.feedAll()
	status := "HTTP 500 from fixtures.test: The server had an error while processing your request (this fixture fails every other time; retry). " + retryHint
	h.expect("error", failed(status))
	h.send(keyTab)
	h.typeText("draft")
	h.expect("tab and typing", failed(status).inComposer())
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.send(keyShiftTab)
	h.send(keyEnter)
	h.expect("retry", writing())
	h.feedAll()
	h.expect("answered", answered())
}

// Ctrl+Z suspends the program as a job, also while a reply streams and under the key list,
// when a shell with job control started it; without one it does nothing (a stop could never
// be taken back).
func TestCtrlZSuspends(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.submit("hello")
	h.feedStream()
	h.m.jobControl = true
	for _, listOpen := range []bool{false, true} {
		h.m.keysOpen = listOpen
		_, cmd := h.m.key(pressOf("ctrl+z"))
		if cmd == nil {
			t.Fatalf("ctrl+z (key list open: %v) gives no command", listOpen)
		}
		if msg := cmd(); msg != (tea.SuspendMsg{}) {
			t.Fatalf("ctrl+z (key list open: %v) gives %T, not a suspend", listOpen, msg)
		}
	}
	h.m.jobControl, h.m.keysOpen = false, false
	if _, cmd := h.m.key(pressOf("ctrl+z")); cmd != nil {
		if msg := cmd(); msg == (tea.SuspendMsg{}) {
			t.Fatal("ctrl+z suspends without job control")
		}
	}
}
