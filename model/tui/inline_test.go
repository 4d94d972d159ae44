package tui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
)

// inlineHarness is a harness whose model runs in the inline mode, keeping every block the
// model printed above itself, in the order the commands produced them.
type inlineHarness struct {
	*harness
	prints []string // each tea.Println's text
	quit   bool     // the program was told to quit
}

func newInlineHarness(t *testing.T, scenario string, width, height int, tune ...func(*chat.Config)) *inlineHarness {
	t.Helper()
	h := newHarness(t, scenario, width, height, tune...)
	ih := &inlineHarness{harness: h}
	h.m.inline = newInlineMode(h.m.chat, view.PlainStyles(), 0) // as New does with Options.Inline
	h.observe = func(msg tea.Msg) {
		if text, ok := printedText(msg); ok {
			if text == "" {
				t.Error("an empty print, which Bubble Tea drops instead of printing an empty line")
			}
			ih.prints = append(ih.prints, ansi.Strip(text)) // plain styles: only the empty line's reset
		}
		if _, ok := msg.(tea.QuitMsg); ok {
			ih.quit = true
		}
	}
	h.send(tea.WindowSizeMsg{Width: width, Height: height})
	return ih
}

// printedText is the text of Bubble Tea's print-above message (tea.Println's), whose type is
// unexported.
func printedText(msg tea.Msg) (string, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Struct || v.Type().Name() != "printLineMessage" {
		return "", false
	}
	return v.FieldByName("messageBody").String(), true
}

// scrollback is everything printed so far, as the terminal shows it.
func (ih *inlineHarness) scrollback() string { return strings.Join(ih.prints, "\n") }

// transcriptText is the whole transcript as the full-screen mode draws it, followed by the
// blank line the inline mode leaves under what it prints.
func (ih *inlineHarness) transcriptText() string {
	lines := view.NewRenderer(view.PlainStyles()).Lines(ih.m.chat.Entries(), ih.m.width)
	return strings.Join(lines, "\n") + "\n"
}

// drain feeds every pending message, tool results included, until none is left.
func (ih *inlineHarness) drain() { ih.feedAll() }

// expectScrollbackIsTheTranscript: every entry printed once, in order, drawn as the full
// screen draws it, and nothing left in the live part.
func (ih *inlineHarness) expectScrollbackIsTheTranscript(step string) {
	ih.t.Helper()
	if got, want := ih.scrollback(), ih.transcriptText(); got != want {
		ih.t.Fatalf("%s: the scrollback is not the transcript\n--- printed\n%s\n--- transcript\n%s", step, got, want)
	}
	if live := ih.m.frame().Entries; len(live) != 0 {
		ih.t.Fatalf("%s: %d entries are still live after the turn", step, len(live))
	}
}

// A turn with a tool: the prompt is printed when sent, the reply with its card when the turn
// is over, each once, in order, exactly as the full screen draws them; the live part never
// holds what is printed.
func TestInlinePrintsEachSettledEntryOnce(t *testing.T) {
	ih := newInlineHarness(t, "seed", 80, 24)
	ih.submit("find the headings")
	ih.drainPrints()
	if got := ih.scrollback(); !strings.Contains(got, "› find the headings") || strings.Contains(got, "lookup") {
		t.Fatalf("after sending, the scrollback should hold the prompt alone:\n%s", got)
	}
	if live := ih.m.frame().Entries; len(live) != 1 || live[0].Role() != transcript.RoleAssistant {
		t.Fatalf("while the reply streams the live part should hold it alone, has %d entries", len(live))
	}
	if strings.Contains(ih.m.View().Content, "find the headings") {
		t.Fatalf("the printed prompt is drawn again in the live part:\n%s", ih.m.View().Content)
	}
	ih.drain()
	ih.expectScrollbackIsTheTranscript("after the turn")
	if n := strings.Count(ih.scrollback(), "› find the headings"); n != 1 {
		t.Fatalf("the prompt was printed %d times", n)
	}

	ih.submit("and again")
	ih.drain()
	ih.expectScrollbackIsTheTranscript("after a second turn")
}

// drainPrints feeds the messages of the print commands only (the stream waits).
func (ih *inlineHarness) drainPrints() {
	ih.t.Helper()
	kept := ih.pending[:0:0]
	for len(ih.pending) > 0 {
		msg := ih.pending[0]
		ih.pending = ih.pending[1:]
		switch msg.(type) {
		case printedMsg, quitInlineMsg:
			ih.send(msg)
		default:
			if _, ok := printedText(msg); ok {
				ih.send(msg)
				continue
			}
			kept = append(kept, msg)
		}
	}
	ih.pending = kept
}

// Esc mid-reply: the partial reply, marked stopped, is printed once.
func TestInlineStopPrintsThePartialReply(t *testing.T) {
	ih := newInlineHarness(t, "text", 80, 24)
	ih.submit("hello")
	for range 4 {
		ih.feedStream()
	}
	ih.send(keyEsc)
	ih.drain()
	ih.expectScrollbackIsTheTranscript("after Esc")
	if n := strings.Count(ih.scrollback(), "■ Stopped — the partial reply is kept."); n != 1 {
		t.Fatalf("the stopped mark was printed %d times:\n%s", n, ih.scrollback())
	}
}

// An error, then Retry: the failed reply is printed when the request fails, the retried
// reply when it ends; nothing twice.
func TestInlineErrorThenRetry(t *testing.T) {
	ih := newInlineHarness(t, "flaky", 80, 24)
	ih.submit("hello")
	ih.drain()
	failedAt := len(ih.prints)
	ih.expectScrollbackIsTheTranscript("after the failure")
	ih.send(keyEnter) // Retry has the focus
	ih.drain()
	ih.expectScrollbackIsTheTranscript("after Retry")
	if len(ih.prints) <= failedAt {
		t.Fatal("the retried reply was not printed")
	}
	if n := strings.Count(ih.scrollback(), "› hello"); n != 1 {
		t.Fatalf("the prompt was printed %d times", n)
	}
}

// Ctrl+C mid-reply: the stopped reply is printed, and only then the program quits, drawing
// nothing more.
func TestInlineQuitPrintsTheRestFirst(t *testing.T) {
	ih := newInlineHarness(t, "text", 80, 24)
	ih.submit("hello")
	for range 4 {
		ih.feedStream()
	}
	printsBefore := len(ih.prints)
	ih.send(keyCtrlC)
	if ih.quit {
		t.Fatal("quit before the partial reply was printed")
	}
	ih.drain()
	if !ih.quit {
		t.Fatal("the program did not quit")
	}
	if len(ih.prints) == printsBefore || !strings.Contains(ih.scrollback(), "■ Stopped") {
		t.Fatalf("the partial reply was not printed before quitting:\n%s", ih.scrollback())
	}
	ih.expectScrollbackIsTheTranscript("after Ctrl+C")
	if v := ih.m.View(); v.Content != "" {
		t.Fatalf("after quitting the live part is still drawn:\n%s", v.Content)
	}
}

// A print goes out in chunks no taller than the rows the live part leaves free, and the
// live part (a long reply's tail while it streams) never takes more than the rest.
func TestInlineLivePartLeavesRoomForPrints(t *testing.T) {
	ih := newInlineHarness(t, "long", 80, 24)
	ih.submit("count")
	for range 400 {
		ih.feedStream()
	}
	v := ih.m.View()
	rows := strings.Split(v.Content, "\n")
	if len(rows) > 24-liveReserve(24) {
		t.Fatalf("the live part has %d rows in a 24-row terminal", len(rows))
	}
	if v.AltScreen || v.MouseMode != tea.MouseModeNone {
		t.Fatalf("inline mode uses the alternate screen (%v) or the mouse (%v)", v.AltScreen, v.MouseMode)
	}
	tail := ih.m.chat.Entries()[1].Text()
	lastLine := tail[strings.LastIndex(strings.TrimRight(tail, "\n"), "\n")+1:]
	if !strings.Contains(v.Content, strings.TrimSpace(lastLine)) {
		t.Fatalf("the live part does not show the reply's tail %q:\n%s", lastLine, v.Content)
	}
	ih.drain()
	for i, p := range ih.prints {
		if n := strings.Count(p, "\n") + 1; n > liveReserve(24) {
			t.Fatalf("print %d has %d lines, more than the %d free rows", i, n, liveReserve(24))
		}
	}
	ih.expectScrollbackIsTheTranscript("after the long reply")
}

// A resize: what is printed stays as printed; what is printed afterwards fits the new width.
func TestInlineResize(t *testing.T) {
	ih := newInlineHarness(t, "text", 100, 24)
	ih.submit("hello")
	ih.drain()
	before := ih.scrollback()
	ih.send(tea.WindowSizeMsg{Width: 40, Height: 20})
	ih.drain()
	if ih.scrollback() != before {
		t.Fatal("a resize printed again")
	}
	ih.submit("again")
	ih.drain()
	for _, line := range strings.Split(strings.TrimPrefix(ih.scrollback(), before), "\n") {
		if w := ansi.StringWidth(line); w > 40 {
			t.Fatalf("a line printed after the resize is %d wide: %q", w, line)
		}
	}
	if rows := strings.Count(ih.m.View().Content, "\n") + 1; rows > 20-liveReserve(20) {
		t.Fatalf("the live part has %d rows after the resize", rows)
	}
}

// The scroll keys do nothing inline and are not in the help; the transcript can be cleared,
// restarted or regenerated without printing anything twice.
func TestInlineScrollKeysAndTranscriptChanges(t *testing.T) {
	ih := newInlineHarness(t, "text", 80, 24)
	ih.submit("hello")
	ih.drain()
	before := ih.m.View().Content
	if strings.Contains(before, "pgup") || strings.Contains(before, "scroll") {
		t.Fatalf("the help offers scrolling inline:\n%s", before)
	}
	ih.send(keyPgUp)
	if ih.m.View().Content != before || ih.m.linesUp() != 0 {
		t.Fatal("PgUp changed the live part")
	}
	for _, k := range ih.m.allKeys() {
		if strings.Contains(k.Keys, "pgup") || strings.Contains(k.Keys, "home") || strings.Contains(k.Does, "scroll") {
			t.Fatalf("the key list offers %s (%s) inline", k.Keys, k.Does)
		}
	}
	if len(ih.m.allKeys()) == len(newHarness(t, "text", 80, 24).m.allKeys()) {
		t.Fatal("the key list inline is the full screen's")
	}

	printed := len(ih.prints)
	ih.send(keyCtrlR) // regenerate: the old reply stays printed, the new one is printed too
	ih.drain()
	if len(ih.prints) == printed {
		t.Fatal("the regenerated reply was not printed")
	}
	if n := strings.Count(ih.scrollback(), "› hello"); n != 1 {
		t.Fatalf("the prompt was printed %d times after regenerating", n)
	}

	ih.m.chat.ClearTranscript()
	ih.submit("after clearing")
	ih.drain()
	if n := strings.Count(ih.scrollback(), "› hello"); n != 1 {
		t.Fatalf("the prompt was printed %d times after clearing", n)
	}
	if !strings.HasSuffix(ih.scrollback(), ih.transcriptText()) {
		t.Fatalf("the cleared transcript's new entries were not printed in order:\n%s", ih.scrollback())
	}
}

// The live part's screens at 80x24: a reply streaming, a tool asking for approval, idle after
// a turn. Run with -update after a deliberate change and read the diff.
func TestInlineLiveGolden(t *testing.T) {
	scenes := []struct {
		name, scenario string
		drive          func(ih *inlineHarness)
	}{
		{"streaming", "text", func(ih *inlineHarness) {
			ih.submit("hello")
			for range 6 {
				ih.feedStream()
			}
			ih.drainPrints()
		}},
		{"asking", "note", func(ih *inlineHarness) {
			ih.submit("note: buy milk")
			feedUntilQuiet(ih.harness)
			ih.drainPrints()
		}},
		{"complete", "seed", func(ih *inlineHarness) {
			ih.submit("find the headings")
			ih.drain()
		}},
	}
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			ih := newInlineHarness(t, sc.scenario, 80, 24)
			sc.drive(ih)
			content := ih.m.View().Content
			if sc.name == "asking" && !strings.Contains(content, "Allow write_note") {
				t.Fatalf("the approval question is not in the live part:\n%s", content)
			}
			golden.RequireEqual(t, []byte(fmt.Sprintf("%s\n--- printed above\n%s", content, ih.scrollback())))
		})
	}
}

// The card keys select in the live part only: a selected card is printed without its
// selection mark when its turn ends, and a printed card cannot be selected.
func TestInlineSelectsLiveCardsOnly(t *testing.T) {
	ih := newInlineHarness(t, "note", 80, 24)
	ih.submit("note: buy milk")
	feedUntilQuiet(ih.harness)
	ih.drainPrints()
	ih.send(keyAltUp)
	if !strings.Contains(ih.m.View().Content, "▶") {
		t.Fatalf("the live card cannot be selected:\n%s", ih.m.View().Content)
	}
	ih.quiet()
	ih.send(keyRune('y'))
	ih.drain()
	ih.expectScrollbackIsTheTranscript("after the approved turn")
	if strings.Contains(ih.scrollback(), "▶") {
		t.Fatalf("a card was printed selected:\n%s", ih.scrollback())
	}
	ih.send(keyAltUp)
	if _, _, ok := ih.m.chat.Focused(); ok {
		t.Fatal("a printed card was selected")
	}
	if strings.Contains(ih.m.View().Content, "select card") {
		t.Fatalf("the help offers selecting cards with none in the live part:\n%s", ih.m.View().Content)
	}
}

// BenchmarkInlineTokenUpdateAndView is P3 in the inline mode: one text token's Update and the
// live part's View at 120x40, after a conversation of 1k or 100k rows was printed into the
// scrollback. Printed entries are out of the live part, so the cost does not grow with them.
func BenchmarkInlineTokenUpdateAndView(b *testing.B) {
	for _, size := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%dk", size/1000), func(b *testing.B) {
			h := newHarness(b, "text", 120, 40)
			h.m.renderer = view.NewRenderer(view.DefaultStyles())
			rows := fillTranscript(h, size)
			entries := h.m.chat.Entries()
			h.m.inline = newInlineMode(h.m.chat, view.PlainStyles(), 0)
			h.m.inline.next = len(entries) // the conversation is in the scrollback
			h.submit("go on")
			for _, msg := range h.pending {
				if _, ok := msg.(chat.StreamMsg); !ok {
					h.send(msg) // the prompt's print and its report
				}
			}
			first := h.feedStream()
			h.m.View()
			if live := len(h.m.frame().Entries); live != 1 {
				b.Fatalf("%d entries in the live part, want the streaming reply alone", live)
			}
			msgs := tokenMsgs(first)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				next, _ := h.m.Update(msgs[i%len(msgs)])
				h.m = next.(*Model)
				_ = h.m.View()
				i++
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// tokenMsgs are the text tokens of the P3 benchmark for the request of first: a paragraph of
// 60 words, then a paragraph break, as a real reply completes its blocks.
func tokenMsgs(first chat.StreamMsg) []chat.StreamMsg {
	tokens := strings.Fields("The renderer keeps every complete block and rewraps only the open tail of the reply")
	msgs := make([]chat.StreamMsg, 60)
	for i := range msgs {
		tok := tokens[i%len(tokens)] + " "
		if i == len(msgs)-1 {
			tok += "\n\n"
		}
		u := wire.Update{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: tok}}}
		msgs[i] = chat.StreamMsg{Req: first.Req, Src: first.Src, Update: u, More: true}
	}
	return msgs
}

// A resumed conversation is printed into the scrollback as soon as the terminal's width is
// known, before anything of the new turn.
func TestInlinePrintsAResumedConversationFirst(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	h.m.chat = chat.New(h.cfg, []wire.Message{{Role: "user", Parts: wire.TextParts("an old question")}, {Role: "assistant", Parts: wire.TextParts("an old answer")}})
	h.m.inline = newInlineMode(h.m.chat, view.PlainStyles(), 0)
	h.m.sized = false // the inline mode starts before any size
	ih := &inlineHarness{harness: h}
	h.observe = func(msg tea.Msg) {
		if text, ok := printedText(msg); ok {
			ih.prints = append(ih.prints, ansi.Strip(text))
		}
	}
	h.send(tea.KeyPressMsg{Code: 'x', Text: "x"}) // before the size: nothing is printed
	if len(ih.prints) != 0 {
		t.Fatal("printed before the terminal's width was known")
	}
	h.send(keyBackspace)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	ih.submit("a new question")
	ih.drain()
	ih.expectScrollbackIsTheTranscript("after resuming and a new turn")
	if !strings.HasPrefix(ih.scrollback(), "› an old question") {
		t.Fatalf("the resumed conversation is not printed first:\n%s", ih.scrollback())
	}
}

// Ctrl+O inline expands a card of the live part, never one printed to the scrollback (it could
// not be drawn again there): with only printed cards it says so and changes nothing.
func TestInlineCtrlOLeavesPrintedCardsAlone(t *testing.T) {
	ih := newInlineHarness(t, "note", 80, 24)
	ih.submit("note: buy milk")
	feedUntilQuiet(ih.harness)
	ih.drainPrints()
	ih.send(keyCtrlO)
	card := func() transcript.Card {
		for _, e := range ih.m.chat.Entries() {
			if cards := e.Cards(); len(cards) > 0 {
				return cards[0]
			}
		}
		t.Fatal("no card")
		return transcript.Card{}
	}
	if !card().Expanded() {
		t.Fatalf("ctrl+o did not expand the live card:\n%s", ih.m.View().Content)
	}
	ih.send(keyCtrlO)
	ih.quiet()
	ih.send(keyRune('y'))
	ih.drain()
	ih.expectScrollbackIsTheTranscript("after the approved turn")
	ih.send(keyCtrlO)
	if card().Expanded() {
		t.Error("ctrl+o expanded a printed card")
	}
	if got := ih.status(); got != "Cards already printed to the scrollback cannot be expanded; ctrl+o expands those not printed yet." {
		t.Errorf("status %q", got)
	}
}
