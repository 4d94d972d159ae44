package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// conversation is a history of n user turns; turn i says "question i" and, when its number is
// in withTools, the reply calls a tool whose result says "result i" before answering.
func conversation(n int, withTools ...int) []wire.Message {
	var h []wire.Message
	for i := 1; i <= n; i++ {
		q := "question " + string(rune('0'+i))
		h = append(h, wire.Message{Role: "user", Parts: wire.TextParts(q)})
		for _, t := range withTools {
			if t == i {
				id := "call_" + string(rune('0'+i))
				h = append(h,
					wire.Message{Role: "assistant", Parts: []wire.Part{wire.ToolCall{ID: id, Name: "lookup", Arguments: `{"q":1}`}}},
					wire.Message{Role: "tool", ToolCallID: id, Name: "lookup", Parts: wire.TextParts("result " + string(rune('0'+i)))})
			}
		}
		h = append(h, wire.Message{Role: "assistant", Parts: wire.TextParts("answer " + string(rune('0'+i)))})
	}
	return h
}

// validHistory is what a strict API holds a history to: no two user messages in a row, no
// empty assistant message, every call answered right after its message and no result
// answering none. "" when h holds to it.
func validHistory(h []wire.Message) string {
	prev := ""
	open := map[string]bool{}
	for i, m := range h {
		if m.Role != "tool" && len(open) > 0 {
			return "a call is not answered before message " + string(rune('0'+i))
		}
		switch m.Role {
		case "user":
			if prev == "user" {
				return "two user messages in a row"
			}
		case "assistant":
			if len(m.Calls()) == 0 && strings.TrimSpace(m.Text()) == "" {
				return "an empty assistant message"
			}
			for _, c := range m.Calls() {
				open[c.ID] = true
			}
		case "tool":
			if !open[m.ToolCallID] {
				return "a result answers no call"
			}
			delete(open, m.ToolCallID)
		}
		prev = m.Role
	}
	if len(open) > 0 {
		return "the last calls are not answered"
	}
	return ""
}

// compactWith runs /compact on h's engine up to a complete summary.
func compactWith(t *testing.T, h *harness, focus, summary string) []Effect {
	t.Helper()
	opens := effectsOf[OpenStream](h.do(h.c.Compact(focus)))
	if len(opens) != 1 {
		t.Fatalf("Compact opened %d requests: %+v", len(opens), h.effects)
	}
	req := opens[0].Req
	h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Update: text(summary), More: true}))
	return h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Result: complete(nil)}))
}

func TestCompactAsksForASummaryOfTheOlderTurnsWithoutTools(t *testing.T) {
	c := New(Config{Model: "m", System: "be brief", Tools: fakeTools{}}, conversation(4, 1, 3))
	opens := effectsOf[OpenStream](c.Compact("the file names"))
	if len(opens) != 1 {
		t.Fatalf("no summary request: %+v", opens)
	}
	req := opens[0].Request
	if req.System != CompactPrompt || len(req.Tools) != 0 || req.Model != "m" || len(req.Messages) != 1 || req.Messages[0].Role != "user" {
		t.Fatalf("summary request %+v", req)
	}
	ask := req.Messages[0].Text()
	for _, want := range []string{"question 1", "result 1", "answer 2", "Keep above all: the file names"} {
		if !strings.Contains(ask, want) {
			t.Errorf("the summary request does not carry %q:\n%s", want, ask)
		}
	}
	for _, kept := range []string{"question 3", "question 4"} {
		if strings.Contains(ask, kept) {
			t.Errorf("the summary request carries the kept turn %q", kept)
		}
	}
	if !c.State.Phase.Streaming() || c.History[len(c.History)-1].Text() != "answer 4" {
		t.Fatalf("phase %s, history %d messages", c.State.Phase, len(c.History))
	}
}

func TestCompactedRequestsSendTheSummaryInPlaceOfTheOlderTurns(t *testing.T) {
	h := &harness{t: t, c: New(Config{Model: "m", Tools: fakeTools{}}, conversation(4, 1, 3)), src: &fakeSource{}}
	before := len(h.c.History)
	effects := compactWith(t, h, "", "They talked about lookups.")
	recs := finalRecords(effects)
	if len(recs) != 1 || recs[0].Compaction == nil || *recs[0].Compaction != (Compaction{Summary: "They talked about lookups.", Turns: 2, After: 4}) {
		t.Fatalf("the compaction is not recorded: %+v", effects)
	}
	if h.c.Compacted().Turns != 2 || len(h.c.History) != before || h.c.State.Phase.Streaming() {
		t.Fatalf("compaction %+v, history %d (was %d), phase %s", h.c.Compacted(), len(h.c.History), before, h.c.State.Phase)
	}
	if len(effectsOf[CloseSource](effects)) != 1 || len(effectsOf[Cancel](effects)) != 1 {
		t.Fatalf("the summary request is not released: %+v", effects)
	}
	opens := effectsOf[OpenStream](h.do(h.c.Submit("question 5")))
	msgs := opens[0].Request.Messages
	if why := validHistory(msgs); why != "" {
		t.Fatalf("the next request is no valid history (%s): %v", why, roles(msgs))
	}
	first := msgs[0].Text()
	if !strings.HasPrefix(first, SummaryHeading) || !strings.Contains(first, "They talked about lookups.") || !strings.HasSuffix(first, "question 3") {
		t.Fatalf("the first message is not the summary joined to the first kept turn: %q", first)
	}
	for _, m := range msgs {
		for _, old := range []string{"question 1", "answer 1", "result 1", "question 2"} {
			if strings.Contains(m.Text(), old) {
				t.Fatalf("the next request still carries %q", old)
			}
		}
	}
	if n := len(msgs); msgs[n-1].Text() != "question 5" || len(msgs[1].Calls()) != 1 || msgs[2].Role != "tool" {
		t.Fatalf("the kept turns are not whole: %v", roles(msgs))
	}
}

// sent is a valid history in every case, and in every wire format carries the summary and
// none of the turns it stands for.
func TestSentHistoryWithACompaction(t *testing.T) {
	cases := []struct {
		name    string
		history []wire.Message
		turns   int
		gone    []string
		kept    []string
	}{
		{"no compaction", conversation(3, 1), 0, nil, []string{"question 1", "result 1", "answer 3"}},
		{"older turns with calls replaced", conversation(4, 1, 2, 4), 2, []string{"question 2", "result 1", "result 2"}, []string{"question 3", "result 4"}},
		{"every turn replaced", conversation(2, 2), 2, []string{"question 1", "result 2", "answer 2"}, nil},
		{"a compaction beyond the history", conversation(1), 3, []string{"question 1"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := New(Config{Model: "m"}, tc.history)
			if tc.turns > 0 {
				c.SetCompactions([]Compaction{{Summary: "THE SUMMARY", Turns: tc.turns}})
			}
			msgs := c.sent()
			if why := validHistory(msgs); why != "" {
				t.Fatalf("%s: %v", why, roles(msgs))
			}
			for _, w := range []wire.Wire{wire.WireChat, wire.WireAnthropic, wire.WireResponses} {
				body, err := wire.Encode(w, wire.Request{Model: "m", Messages: msgs}, true, false, false, nil)
				if err != nil {
					t.Fatalf("%s: %v", w, err)
				}
				if has := strings.Contains(string(body), "THE SUMMARY"); has != (tc.turns > 0) {
					t.Errorf("%s: summary sent = %v", w, has)
				}
				for _, g := range tc.gone {
					if strings.Contains(string(body), g+`"`) || strings.Contains(string(body), g+`\n`) {
						t.Errorf("%s still sends %q: %s", w, g, body)
					}
				}
				for _, k := range tc.kept {
					if !strings.Contains(string(body), k) {
						t.Errorf("%s does not send the kept %q", w, k)
					}
				}
			}
		})
	}
}

func TestCompactStoppedOrFailedChangesNothing(t *testing.T) {
	for _, how := range []string{"stop", "error event", "failed request", "empty summary", "cut off"} {
		t.Run(how, func(t *testing.T) {
			h := &harness{t: t, c: New(Config{Model: "m"}, conversation(3)), src: &fakeSource{}}
			req := effectsOf[OpenStream](h.do(h.c.Compact("")))[0].Req
			h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Update: text("half a sum"), More: true}))
			switch how {
			case "stop":
				h.do(h.c.Stop())
			case "error event":
				h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Update: errorUpdate("overloaded"), More: true}))
			case "failed request":
				h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Result: wire.Result{Outcome: wire.OutcomeError, Err: &wire.Error{Message: "HTTP 500"}}}))
			case "empty summary":
				h.c.State.Text = phase.Text{}
				h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Result: complete(nil)}))
			case "cut off":
				h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Result: wire.Result{Outcome: wire.OutcomeComplete, FinishReason: "length"}}))
			}
			if h.c.Compacted() != (Compaction{}) || h.c.summary != nil || h.c.State.Phase.Streaming() {
				t.Fatalf("compaction %+v, in flight %v, phase %s", h.c.Compacted(), h.c.summary != nil, h.c.State.Phase)
			}
			if recs := finalRecords(h.effects); len(recs) != 0 {
				t.Fatalf("records after %s: %+v", how, recs)
			}
			if len(effectsOf[CloseSource](h.effects)) != 1 || len(effectsOf[Cancel](h.effects)) != 1 {
				t.Fatalf("the summary request is not released: %+v", h.effects)
			}
			last := h.c.Entries()[len(h.c.Entries())-1]
			if !strings.Contains(last.Text(), "Nothing changed") {
				t.Fatalf("not said: %q", last.Text())
			}
			opens := effectsOf[OpenStream](h.do(h.c.Submit("question 4")))
			if msgs := opens[0].Request.Messages; len(msgs) != 7 || msgs[0].Text() != "question 1" {
				t.Fatalf("the next request is not the whole conversation: %v", roles(msgs))
			}
		})
	}
}

func TestCompactWithNothingToSummarise(t *testing.T) {
	c := New(Config{Model: "m"}, nil)
	if effects := c.Compact(""); len(effectsOf[OpenStream](effects)) != 0 || !strings.Contains(c.Entries()[0].Text(), "Nothing to compact") {
		t.Fatal("an empty conversation is compacted")
	}
	h := &harness{t: t, c: New(Config{Model: "m"}, conversation(1)), src: &fakeSource{}}
	compactWith(t, h, "", "S")
	if h.c.Compacted().Turns != 1 {
		t.Fatalf("a one-turn conversation is summarised whole: %+v", h.c.Compacted())
	}
	if effects := h.c.Compact(""); len(effectsOf[OpenStream](effects)) != 0 {
		t.Fatal("compacted again with no new turn")
	}
}

// A second compaction summarises the first summary and the turns after it, not the turns the
// first one stands for.
func TestCompactAgainSummarisesTheSummary(t *testing.T) {
	h := &harness{t: t, c: New(Config{Model: "m"}, conversation(4)), src: &fakeSource{}}
	compactWith(t, h, "", "FIRST")
	h.c.History = append(h.c.History, conversation(6)[8:]...)
	ask := effectsOf[OpenStream](h.do(h.c.Compact("")))[0].Request.Messages[0].Text()
	if !strings.Contains(ask, "FIRST") || strings.Contains(ask, "question 2") || !strings.Contains(ask, "question 4") || strings.Contains(ask, "question 5") {
		t.Fatalf("second summary request:\n%s", ask)
	}
}

// compact_at compacts on its own once a turn ends past it, saying so first; a turn whose tool
// loop goes on waits for its end, and a fill below it compacts nothing.
func TestCompactAtCompactsAfterTheTurn(t *testing.T) {
	for _, tc := range []struct {
		name      string
		compactAt float64
		prompt    int
		want      bool
	}{
		{"past it", 0.9, 900, true},
		{"below it", 0.95, 900, false},
		{"off", 0, 990, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &harness{t: t, c: New(Config{Model: "m", Tools: fakeTools{}, CompactAt: tc.compactAt, Budget: budget.Model{Window: 1000}}, conversation(3)), src: &fakeSource{}}
			h.do(h.c.Submit("question 4"))
			h.feed(toolFrame("now", start("c1", "now"), delta("c1", "{}"), ready("c1")))
			h.end(complete(&wire.Usage{PromptTokens: tc.prompt, CompletionTokens: 20}))
			if opens := effectsOf[OpenStream](h.effects); len(opens) != 0 {
				t.Fatalf("a request opened while a tool runs: %+v", opens)
			}
			h.toolDone("c1", "noon", false)
			h.feed(text("It is noon."))
			effects := h.end(complete(&wire.Usage{PromptTokens: tc.prompt + 10, CompletionTokens: 5}))
			opens := effectsOf[OpenStream](effects)
			if !tc.want {
				if len(opens) != 0 || h.c.State.Phase.Streaming() {
					t.Fatalf("compacted: %+v", opens)
				}
				return
			}
			if len(opens) != 1 || opens[0].Request.System != CompactPrompt {
				t.Fatalf("no compaction after the turn: %+v", effects)
			}
			entries := h.c.Entries()
			if said := entries[len(entries)-2].Text(); !strings.Contains(said, "past compact_at = 0.9: compacting the conversation now") {
				t.Fatalf("not said before the summary: %q", said)
			}
			if recs := finalRecords(effects); len(recs) < 2 || recs[0].Usage == nil {
				t.Fatalf("the turn's records do not come first: %+v", recs)
			}
		})
	}
}

// A turn whose request is estimated past the window is said to be, with /compact offered,
// before it goes; it goes all the same, and a tool loop's next requests say nothing more.
func TestARequestPastTheWindowOffersCompact(t *testing.T) {
	h := newHarness(t, Config{Model: "m", Tools: fakeTools{}, Budget: budget.Model{Window: 100}})
	effects := h.do(h.c.Submit(strings.Repeat("long words ", 50)))
	if len(effectsOf[OpenStream](effects)) != 1 {
		t.Fatalf("the request was held back: %+v", effects)
	}
	entries := h.c.Entries()
	said := entries[len(entries)-2].Text()
	if !strings.Contains(said, "more than the model's window of 100: the model will likely refuse it. /compact summarises the older turns") {
		t.Fatalf("not said before the request: %q", said)
	}
	h.feed(toolFrame("now", start("c1", "now"), delta("c1", "{}"), ready("c1")))
	h.end(complete(nil))
	n := len(h.c.Entries())
	effects = h.toolDone("c1", "noon", false)
	if len(effectsOf[OpenStream](effects)) != 1 || len(h.c.Entries()) != n+1 {
		t.Fatalf("the tool loop's next request said it again: %d entries, was %d", len(h.c.Entries()), n)
	}

	small := newHarness(t, Config{Model: "m", Budget: budget.Model{Window: 100}})
	small.do(small.c.Submit("short"))
	if len(small.c.Entries()) != 2 {
		t.Fatalf("a request within the window is said to be past it: %q", small.c.Entries()[1].Text())
	}
}

// A message queued while the summary streams goes once the compaction is made, with the
// summary; after a failed summary the queue waits, as after a failed turn.
func TestMessageQueuedDuringTheSummary(t *testing.T) {
	h := &harness{t: t, c: New(Config{Model: "m"}, conversation(3)), src: &fakeSource{}}
	req := effectsOf[OpenStream](h.do(h.c.Compact("")))[0].Req
	h.c.Enqueue("question 4")
	h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Update: text("S"), More: true}))
	opens := effectsOf[OpenStream](h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Result: complete(nil)})))
	if len(opens) != 1 || !strings.HasPrefix(opens[0].Request.Messages[0].Text(), SummaryHeading) ||
		opens[0].Request.Messages[len(opens[0].Request.Messages)-1].Text() != "question 4" {
		t.Fatalf("the queued message did not go with the summary: %+v", opens)
	}

	f := &harness{t: t, c: New(Config{Model: "m"}, conversation(3)), src: &fakeSource{}}
	req = effectsOf[OpenStream](f.do(f.c.Compact("")))[0].Req
	f.c.Enqueue("question 4")
	f.do(f.c.HandleStream(StreamMsg{Req: req, Src: f.src, Update: errorUpdate("overloaded"), More: true}))
	if len(effectsOf[OpenStream](f.effects)) != 0 || !f.c.QueueWaits() {
		t.Fatalf("after a failed summary the queue went (or does not wait): %+v", f.effects)
	}
}

// /usage counts the history as requests send it, and says a compaction is in force.
func TestUsageReportAfterACompaction(t *testing.T) {
	c := New(Config{Model: "m"}, conversation(4))
	c.SetCompactions([]Compaction{{Summary: strings.Repeat("s", 40), Turns: 2}})
	entries := c.Entries()
	if last := entries[len(entries)-1].Text(); !strings.HasPrefix(last, SummaryHeading) || !strings.HasSuffix(last, strings.Repeat("s", 40)) {
		t.Fatalf("a resumed compaction is not shown: %q", last)
	}
	got := strings.Join(c.UsageReport(), "\n")
	for _, want := range []string{"history of 4 messages", "Compacted: a summary (~10 tokens) is sent in place of the first 2 turns"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// The summary's tokens are the conversation's: its usage record carries what it cost, like a
// reply's, so the saved totals count it.
func TestTheSummarysUsageIsRecordedWithItsCost(t *testing.T) {
	h := &harness{t: t, c: New(Config{Model: "m", Budget: budget.Model{Price: &budget.Price{In: 1, Out: 2}}}, conversation(4)), src: &fakeSource{}}
	req := effectsOf[OpenStream](h.do(h.c.Compact("")))[0].Req
	h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Update: text("They talked."), More: true}))
	effects := h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Result: complete(&wire.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000})}))
	var usage []Record
	for _, r := range effectsOf[Record](effects) {
		if r.Usage != nil {
			usage = append(usage, r)
		}
	}
	if len(usage) != 1 || usage[0].Cost != 2 {
		t.Fatalf("the summary's usage records: %+v, want one costing $2", usage)
	}
}

// A seeded log names the models its messages were held with where they change, the first
// left to its header, and each copied turn's usage carries its cost at its own price.
func TestRecordsNameTheModelsAndPriceTheTurns(t *testing.T) {
	h := []wire.Message{
		{Role: "user", Parts: wire.TextParts("one")}, {Role: "assistant", Parts: wire.TextParts("1")},
		{Role: "user", Parts: wire.TextParts("two")}, {Role: "assistant", Parts: wire.TextParts("2")},
	}
	price := &budget.Price{In: 1, Out: 2}
	u := wire.Usage{PromptTokens: 100, CompletionTokens: 10}
	recs := Records(h, []string{"a", "a", "", "b"}, nil, []SavedTally{{Reply: 3, Usage: u, Model: "b", Price: price}}, time.Unix(0, 0))
	var got []string
	for _, r := range recs {
		switch {
		case r.Model != "":
			got = append(got, "model "+r.Model)
		case r.Usage != nil:
			got = append(got, fmt.Sprintf("usage $%g", r.Cost))
		default:
			got = append(got, r.Message.Role)
		}
	}
	if want := fmt.Sprintf("user assistant user model b usage $%g assistant", price.Cost(u)); strings.Join(got, " ") != want {
		t.Fatalf("records %q, want %q", strings.Join(got, " "), want)
	}
}

// A compaction begun after a stop lets go of the queue the stop held, as a message does: a
// message queued while the summary streams goes once the compaction is made.
func TestACompactionAfterAStopLetsGoOfTheQueue(t *testing.T) {
	h := &harness{t: t, c: New(Config{Model: "m"}, conversation(3)), src: &fakeSource{}}
	h.do(h.c.Submit("question 4"))
	h.feed(text("partial"))
	h.c.Stop()
	req := effectsOf[OpenStream](h.do(h.c.Compact("")))[0].Req
	h.c.Enqueue("question 5")
	h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Update: text("S"), More: true}))
	opens := effectsOf[OpenStream](h.do(h.c.HandleStream(StreamMsg{Req: req, Src: h.src, Result: complete(nil)})))
	if len(opens) != 1 || h.c.QueueWaits() {
		t.Fatalf("the message queued during a summary begun after a stop did not go: %d requests, queued %q", len(opens), h.c.Queued())
	}
}
