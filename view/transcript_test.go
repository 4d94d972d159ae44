package view

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase/transcript"
)

// numbered returns n one-line notices "entry 0" … "entry n-1".
func numbered(n int) []*draft {
	es := make([]*draft, n)
	for i := range es {
		es[i] = &draft{Role: transcript.RoleNotice, Text: fmt.Sprintf("entry %d", i)}
	}
	return es
}

// transcriptOf renders entries in a frame whose transcript area is rows tall (the rest of the
// screen takes 7 rows: rule, status, label, one composer row, help, footer … see plan).
func transcriptFrame(entries []*draft, width, rows, scrollUp int) Frame {
	return Frame{Width: width, Height: rows + 6, Entries: published(entries), ScrollUp: scrollUp, Composer: "┃"}
}

func transcriptRows(t *testing.T, r *Renderer, f Frame) ([]string, Screen) {
	t.Helper()
	scr := r.Render(f)
	return strings.Split(scr.Content, "\n")[:scr.TranscriptHeight], scr
}

func TestChangeRerendersThatEntryOnly(t *testing.T) {
	es := numbered(20)
	r := NewRenderer(PlainStyles())
	f := transcriptFrame(es, 80, 60, 0)
	r.Render(f)
	before := r.tr.renders
	r.Render(f)
	if got := r.tr.renders - before; got != 0 {
		t.Fatalf("an unchanged frame rendered %d entries", got)
	}
	es[7].Text = "entry seven, changed"
	r.Render(f)
	if got := r.tr.renders - before; got != 0 {
		t.Fatalf("a draft not yet handed to the transcript rendered %d entries", got)
	}
	es[7].entry() // the change, through the transcript, bumps the entry's version
	rows, _ := transcriptRows(t, r, f)
	if got := r.tr.renders - before; got != 1 {
		t.Fatalf("changing one entry rendered %d entries", got)
	}
	if !strings.Contains(strings.Join(rows, "\n"), "· entry seven, changed") {
		t.Fatalf("the bumped entry is not redrawn:\n%s", strings.Join(rows, "\n"))
	}
}

func TestWidthChangeRewraps(t *testing.T) {
	es := []*draft{{Role: transcript.RoleUser, Text: strings.Repeat("word ", 30)}}
	r := NewRenderer(PlainStyles())
	wide, _ := transcriptRows(t, r, transcriptFrame(es, 80, 20, 0))
	narrow, _ := transcriptRows(t, r, transcriptFrame(es, 30, 20, 0))
	count := func(rows []string) int {
		n := 0
		for _, row := range rows {
			if strings.Contains(row, "word") {
				n++
			}
		}
		return n
	}
	if count(wide) != 2 || count(narrow) != 6 {
		t.Fatalf("want 2 rows at 80 columns and 6 at 30, got %d and %d:\n%s\n--\n%s",
			count(wide), count(narrow), strings.Join(wide, "\n"), strings.Join(narrow, "\n"))
	}
	for _, row := range narrow {
		if cells(row) > 30 {
			t.Fatalf("row wider than 30 after the resize: %q", row)
		}
	}
}

func TestFollowingAndScrolling(t *testing.T) {
	es := numbered(30) // 30 lines and 29 gaps: 59 rows
	r := NewRenderer(PlainStyles())
	rows, scr := transcriptRows(t, r, transcriptFrame(es, 80, 10, 0))
	if rows[9] != "· entry 29" || rows[8] != "" || rows[7] != "· entry 28" {
		t.Fatalf("following: the tail is not at the bottom:\n%s", strings.Join(rows, "\n"))
	}
	if scr.TranscriptHeight != 10 {
		t.Fatalf("transcript height %d, want 10", scr.TranscriptHeight)
	}
	rows, _ = transcriptRows(t, r, transcriptFrame(es, 80, 10, 4))
	if rows[9] != "· entry 27" {
		t.Fatalf("scrolled up 4 rows: bottom row %q, want entry 27", rows[9])
	}
	rows, scr = transcriptRows(t, r, transcriptFrame(es, 80, 10, 1000))
	if rows[0] != "· entry 0" || rows[8] != "· entry 4" || rows[9] != "" {
		t.Fatalf("scrolled past the top: want entries 0..4, got\n%s", strings.Join(rows, "\n"))
	}
	if scr.MaxScroll != 59-10 {
		t.Fatalf("MaxScroll %d, want %d", scr.MaxScroll, 59-10)
	}
	atMax, _ := transcriptRows(t, r, transcriptFrame(es, 80, 10, scr.MaxScroll))
	if strings.Join(atMax, "\n") != strings.Join(rows, "\n") {
		t.Fatal("ScrollUp = MaxScroll does not show the top")
	}
	// A transcript shorter than its area starts at the top and cannot scroll.
	rows, scr = transcriptRows(t, r, transcriptFrame(es[:2], 80, 10, 5))
	if rows[0] != "· entry 0" || rows[2] != "· entry 1" || rows[3] != "" || scr.MaxScroll != 0 {
		t.Fatalf("short transcript: MaxScroll %d\n%s", scr.MaxScroll, strings.Join(rows, "\n"))
	}
}

// TestOnlyVisibleEntriesAreRendered: a long transcript renders only what the window reaches;
// MaxScroll starts from estimates and is exact once the top has been reached.
func TestOnlyVisibleEntriesAreRendered(t *testing.T) {
	es := numbered(10000)
	r := NewRenderer(PlainStyles())
	_, scr := transcriptRows(t, r, transcriptFrame(es, 80, 10, 0))
	if r.tr.renders > 6 {
		t.Fatalf("following the tail rendered %d entries for a 10-row window", r.tr.renders)
	}
	if scr.MaxScroll < 10000 {
		t.Fatalf("MaxScroll %d does not account for the unrendered entries", scr.MaxScroll)
	}
	_, scr = transcriptRows(t, r, transcriptFrame(es, 80, 10, 1<<30))
	if want := 2*10000 - 1 - 10; scr.MaxScroll != want {
		t.Fatalf("after reaching the top, MaxScroll %d, want %d", scr.MaxScroll, want)
	}
	before := r.tr.renders
	es = append(es, &draft{Role: transcript.RoleNotice, Text: "new"})
	rows, _ := transcriptRows(t, r, transcriptFrame(es, 80, 10, 0))
	if got := r.tr.renders - before; got != 1 || rows[9] != "· new" {
		t.Fatalf("appending one entry rendered %d entries; bottom row %q", got, rows[9])
	}
}

func TestReshapedEntriesAreMatchedByPointer(t *testing.T) {
	es := numbered(5)
	r := NewRenderer(PlainStyles())
	r.Render(transcriptFrame(es, 80, 20, 0))
	before := r.tr.renders
	without := append(append([]*draft{}, es[:2]...), es[3:]...) // drop entry 2
	rows, scr := transcriptRows(t, r, transcriptFrame(without, 80, 20, 0))
	text := strings.Join(rows, "\n")
	if strings.Contains(text, "entry 2") || !strings.Contains(text, "entry 4") {
		t.Fatalf("after removing entry 2:\n%s", text)
	}
	if got := r.tr.renders - before; got != 0 {
		t.Fatalf("removing an entry re-rendered %d others", got)
	}
	if scr.MaxScroll != 0 || len(r.tr.slots) != 4 {
		t.Fatalf("slots %d, MaxScroll %d", len(r.tr.slots), scr.MaxScroll)
	}
	// An entirely new list (a new session) replaces everything.
	rows, _ = transcriptRows(t, r, transcriptFrame(numbered(1), 80, 20, 0))
	if rows[0] != "· entry 0" || rows[1] != "" {
		t.Fatalf("new session:\n%s", strings.Join(rows, "\n"))
	}
}

// TestEvictionKeepsTheCacheWithinBudget scrolls through a transcript larger than the cache
// budget: views beyond the budget are dropped (heights kept), and an evicted entry draws the
// same when it comes back.
func TestEvictionKeepsTheCacheWithinBudget(t *testing.T) {
	es := make([]*draft, 300)
	for i := range es {
		es[i] = &draft{Role: transcript.RoleAssistant, Text: fmt.Sprintf("Reply %d. ", i) + strings.Repeat("Some words to wrap. ", 20)}
	}
	r := NewRenderer(PlainStyles())
	r.tr.budget = 16 << 10
	first, scr := transcriptRows(t, r, transcriptFrame(es, 60, 20, 1<<30))
	for up := scr.MaxScroll; up >= 0; up -= 20 {
		_, scr = transcriptRows(t, r, transcriptFrame(es, 60, 20, up))
		if r.tr.bytes > r.tr.budget+8<<10 {
			t.Fatalf("cache holds %d bytes, budget %d", r.tr.bytes, r.tr.budget)
		}
	}
	held := 0
	for _, s := range r.tr.slots {
		if s.view != nil {
			held++
		}
	}
	if held == 0 || held > 40 {
		t.Fatalf("%d views held after scrolling through 300 entries", held)
	}
	before := r.tr.renders
	again, _ := transcriptRows(t, r, transcriptFrame(es, 60, 20, 1<<30))
	if r.tr.renders == before {
		t.Fatal("the top entries were not evicted")
	}
	if strings.Join(again, "\n") != strings.Join(first, "\n") {
		t.Fatalf("an evicted entry draws differently:\n%s\n--\n%s", strings.Join(first, "\n"), strings.Join(again, "\n"))
	}
}

// TestStreamingRendersEachLineOnce streams a long reply token by token: every complete source
// line is drawn exactly once, and the entries above are not rendered again.
func TestStreamingRendersEachLineOnce(t *testing.T) {
	es := numbered(3)
	reply := &draft{Role: transcript.RoleAssistant, Streaming: true}
	es = append(es, reply)
	r := NewRenderer(PlainStyles())
	f := transcriptFrame(es, 80, 30, 0)
	r.Render(f)
	renders := r.tr.renders
	const paragraphs = 40
	for p := range paragraphs {
		for _, tok := range strings.Fields(fmt.Sprintf("Paragraph %d has a few words in it.", p)) {
			reply.Text += tok + " "
			reply.entry()
			r.Render(f)
		}
		reply.Text += "\n\n"
		reply.entry()
		r.Render(f)
	}
	if got := r.tr.pen.md.LinesDrawn; got != 2*paragraphs {
		t.Fatalf("%d complete lines drawn while streaming %d paragraphs of two lines each", got, paragraphs)
	}
	if got := r.tr.renders - renders; got != paragraphs*9 {
		t.Fatalf("%d entry renders for %d versions: entries other than the reply were rendered", got, paragraphs*9)
	}
	reply.Streaming = false
	reply.entry()
	rows, _ := transcriptRows(t, r, f)
	if got := r.tr.pen.md.LinesDrawn; got != 2*paragraphs {
		t.Fatalf("finishing drew %d complete lines in all, want %d", got, 2*paragraphs)
	}
	if !strings.Contains(strings.Join(rows, "\n"), "Paragraph 39 has a few words in it.") {
		t.Fatalf("the finished reply's tail is not drawn:\n%s", strings.Join(rows, "\n"))
	}
}

// TestLayoutAgreesWithRender: Layout reports the transcript height and scroll limit Render
// reports for the same frame, from the cache's line counts, before and after a change and at
// any scroll position, without drawing the screen.
func TestLayoutAgreesWithRender(t *testing.T) {
	es := numbered(200)
	reply := &draft{Role: transcript.RoleAssistant, Streaming: true, Text: strings.Repeat("A long line of reply text. ", 40)}
	es = append(es, reply)
	for _, scrollUp := range []int{0, 5, 150, 1 << 20} {
		r := NewRenderer(PlainStyles())
		f := transcriptFrame(es, 60, 20, scrollUp)
		h, limit := r.Layout(f)
		scr := r.Render(f)
		if h != scr.TranscriptHeight || limit != scr.MaxScroll {
			t.Fatalf("scrolled %d: Layout %d, %d; Render %d, %d", scrollUp, h, limit, scr.TranscriptHeight, scr.MaxScroll)
		}
		reply.Text += strings.Repeat("More text that wraps onto new lines. ", 10)
		reply.entry()
		h, limit = r.Layout(f)
		if scr := r.Render(f); h != scr.TranscriptHeight || limit != scr.MaxScroll {
			t.Fatalf("scrolled %d, after a change: Layout %d, %d; Render %d, %d", scrollUp, h, limit, scr.TranscriptHeight, scr.MaxScroll)
		}
	}
}

// TestAReplyLargerThanTheBudgetIsNotRedrawn: a streaming reply whose lines alone outgrow the
// cache budget keeps its view while it streams: each complete line is drawn once, not every
// line again on every frame.
func TestAReplyLargerThanTheBudgetIsNotRedrawn(t *testing.T) {
	reply := &draft{Role: transcript.RoleAssistant, Streaming: true}
	es := append(numbered(3), reply)
	r := NewRenderer(PlainStyles())
	r.tr.budget = 2 << 10
	f := transcriptFrame(es, 80, 20, 0)
	const lines = 400
	for i := range lines {
		reply.Text += fmt.Sprintf("Line %d of a reply that is far larger than the cache budget.\n", i)
		reply.entry()
		r.Render(f)
	}
	if got := r.tr.pen.md.LinesDrawn; got != lines {
		t.Fatalf("%d complete lines drawn for a reply of %d: the reply's view was dropped and drawn again", got, lines)
	}
}

// Every entry the window shows keeps its drawing from one frame to the next, even when the
// views outgrow the cache budget: only entries out of view are let go.
func TestVisibleEntriesOverTheBudgetAreNotRedrawn(t *testing.T) {
	es := []*draft{
		{Role: transcript.RoleUser, Text: "first\nsecond\nthird"},
		{Role: transcript.RoleAssistant, Text: "one\n\ntwo\n\nthree"},
		{Role: transcript.RoleUser, Text: "again"},
	}
	r := NewRenderer(PlainStyles())
	r.tr.budget = 1 // every view is over it
	f := transcriptFrame(es, 80, 40, 0)
	frame := func() { r.Layout(f); r.Render(f) } // as the full screen draws: its layout, then the frame
	frame()
	before := r.tr.renders
	frame()
	if got := r.tr.renders - before; got != 0 {
		t.Fatalf("an unchanged frame over the budget drew %d visible entries again", got)
	}
}
