package chat

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// run folds ups into a fresh engine in messages of at most size updates (the last one carrying
// the end of the stream with res when withEnd), and returns what can be seen afterwards: the
// phase, the reply's text, the cards and the calls started, in order.
func runInBatches(t *testing.T, ups []wire.Update, res wire.Result, size int, withEnd bool) string {
	h := newHarness(t, Config{Model: "m", Tools: fakeTools{}})
	h.do(h.c.Submit("go"))
	var started []string
	note := func(effects []Effect) {
		for _, r := range effectsOf[RunTool](effects) {
			started = append(started, r.Call.ID+" "+r.Call.ArgsText)
		}
	}
	ended := false
	for i := 0; i < len(ups); i += size {
		batch := ups[i:min(i+size, len(ups))]
		msg := StreamMsg{Req: h.req(), Src: h.src, Update: batch[0], Rest: batch[1:], More: true}
		if withEnd && i+size >= len(ups) {
			msg.More, msg.Result, ended = false, res, true
		}
		note(h.c.HandleStream(msg))
		if h.c.step == nil {
			break
		}
	}
	if !ended && h.c.step != nil {
		note(h.end(res))
	}
	var cards []string
	for _, e := range h.c.Entries() {
		for _, c := range e.Cards() {
			cards = append(cards, fmt.Sprintf("%s %s %s", c.ID(), c.Status(), c.Summary()))
		}
	}
	last := h.c.Entries()[len(h.c.Entries())-1]
	return fmt.Sprintf("phase %s\ntext %q\ncards %v\nstarted %v\nhistory %d", h.c.State.Phase, last.Text(), cards, started, len(h.c.History))
}

// A batch of updates folds exactly as the same updates one message each: phase, text, cards,
// calls started (each as soon as its update is folded) and the history, at every batch size,
// with the stream's end in the last batch or in a message of its own.
func TestABatchFoldsLikeItsUpdatesOneByOne(t *testing.T) {
	streams := map[string]struct {
		ups []wire.Update
		res wire.Result
	}{
		"text": {[]wire.Update{text("Hel"), text("lo"), text(", world"), doneUpdate()}, complete(nil)},
		"tool then text": {[]wire.Update{
			toolFrame("lookup", start("call_0", "lookup")),
			toolFrame("", delta("call_0", `{"q":`)),
			toolFrame("", delta("call_0", `"home"}`)),
			{Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "Found."}}, Calls: []phase.CallEvent{ready("call_0")}},
			text(" Two."),
			doneUpdate(),
		}, complete(nil)},
		"two calls": {[]wire.Update{
			toolFrame("now", start("a", "now")),
			toolFrame("lookup", ready("a"), start("b", "lookup"), delta("b", `{}`)),
			doneUpdate(ready("b")),
		}, complete(nil)},
		"error midway": {[]wire.Update{text("partial "), text("reply"), errorUpdate("the server broke"), text("never shown")},
			wire.Result{Outcome: wire.OutcomeError, Err: &wire.Error{Message: "the server broke"}}},
	}
	for name, s := range streams {
		t.Run(name, func(t *testing.T) {
			want := runInBatches(t, s.ups, s.res, 1, false)
			for size := 1; size <= len(s.ups); size++ {
				for _, withEnd := range []bool{false, true} {
					if got := runInBatches(t, s.ups, s.res, size, withEnd); got != want {
						t.Errorf("batches of %d (end in the last: %v):\n%s\none by one:\n%s", size, withEnd, got, want)
					}
				}
			}
		})
	}
}

// A stale batch (an earlier request's) is not folded; only its source is closed.
func TestAStaleBatchOnlyClosesItsSource(t *testing.T) {
	h := newHarness(t, Config{Model: "m"})
	h.do(h.c.Submit("go"))
	old := h.req()
	h.feed(text("first"))
	h.do(h.c.Stop())
	h.do(h.c.Submit("again"))
	stale := &fakeSource{}
	effects := h.c.HandleStream(StreamMsg{Req: old, Src: stale, Update: text(" late"), Rest: []wire.Update{text(" later")}, More: true})
	if !reflect.DeepEqual(effects, []Effect{CloseSource{Src: stale}}) {
		t.Fatalf("effects %+v; want only the stale source closed", effects)
	}
	if es := h.c.Entries(); es[len(es)-1].Text() != "" {
		t.Fatalf("the stale batch reached the new reply: %q", es[len(es)-1].Text())
	}
}
