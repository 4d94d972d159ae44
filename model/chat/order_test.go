package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// partsOf writes a reply's parts as "t:<text>" and "c:<call id>", in order.
func partsOf(e *transcript.Entry) string {
	var out []string
	for _, p := range e.Parts() {
		if p.IsCard() {
			out = append(out, "c:"+e.Cards()[p.Card()].ID())
		} else {
			out = append(out, "t:"+e.PartText(p))
		}
	}
	return strings.Join(out, " ")
}

// wirePartsOf writes a message's text and calls as partsOf does.
func wirePartsOf(m wire.Message) string {
	var out []string
	for _, p := range m.Parts {
		switch p := p.(type) {
		case wire.Text:
			out = append(out, "t:"+p.Text)
		case wire.ToolCall:
			out = append(out, "c:"+p.ID)
		}
	}
	return strings.Join(out, " ")
}

// withText is a frame that carries text and call events at once.
func withText(d string, calls ...phase.CallEvent) wire.Update {
	u := text(d)
	u.Calls = calls
	return u
}

// The engine puts each frame's text and cards in the reply in the order the stream sent them,
// and the history's assistant message holds the same parts in the same order.
func TestRepliesKeepWireOrder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frames []wire.Update
		want   string
	}{
		{"text, then a tool", []wire.Update{text("Let me look."), toolFrame("now", start("a", "now"), delta("a", "{}"))}, "t:Let me look. c:a"},
		{"a tool, then text", []wire.Update{toolFrame("now", start("a", "now"), delta("a", "{}")), withText("It is ", ready("a")), text("noon.")}, "c:a t:It is noon."},
		{"text around two tools", []wire.Update{text("One"), toolFrame("now", start("a", "now")), toolFrame("now", start("b", "now")), text(" two"), toolFrame("now", start("c", "now"))}, "t:One c:a c:b t: two c:c"},
		{"a start held back until the text after it", []wire.Update{text("x"), withText("y", start("a", "now"), delta("a", "{}"), ready("a")), text("z")}, "t:x c:a t:yz"},
		{"text between every call", []wire.Update{text("Let me look."), toolFrame("now", start("a", "now"), delta("a", "{}")), withText(" It says", ready("a")), text(" so."), toolFrame("now", start("b", "now")), text(" So.")}, "t:Let me look. c:a t: It says so. c:b t: So."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{Tools: fakeTools{}})
			h.do(h.c.Submit("hi"))
			for _, u := range tc.frames {
				h.feed(u)
			}
			e := h.c.step.entry
			if got := partsOf(e); got != tc.want {
				t.Fatalf("parts %q, want %q", got, tc.want)
			}
			var readies []phase.CallEvent
			for _, call := range h.c.step.calls.List() {
				if call.Status == phase.CallPending {
					readies = append(readies, ready(call.ID))
				}
			}
			h.feed(doneUpdate(readies...))
			for _, call := range h.c.step.calls.List() {
				if call.Status == phase.CallRunning {
					h.toolDone(call.ID, "ok", false)
				}
			}
			h.end(complete(nil))
			var reply *wire.Message
			for i := range h.c.History {
				if h.c.History[i].Role == "assistant" {
					reply = &h.c.History[i]
					break
				}
			}
			if reply == nil || reply.Text() != e.Text() || wirePartsOf(*reply) != tc.want {
				t.Fatalf("history's reply %+v, entry text %q", reply, e.Text())
			}
			if got := partsOf(New(Config{}, h.c.History).Entries()[1]); got != tc.want {
				t.Fatalf("resumed, the reply's parts are %q, want %q", got, tc.want)
			}
		})
	}
}

// agenticReply streams a reply that talks between its calls: text, a, text, b, text, with both
// calls started (ready and running) and, when finish is set, done.
func agenticReply(h *harness, finish bool) {
	h.feed(text("Let me look."))
	h.feed(toolFrame("now", start("a", "now"), delta("a", "{}")))
	h.feed(withText(" It says so.", ready("a")))
	h.feed(toolFrame("now", start("b", "now"), delta("b", "{}")))
	h.feed(withText(" So.", ready("b")))
	if finish {
		h.toolDone("a", "one", false)
		h.toolDone("b", "two", false)
	}
}

// However a reply ends — whole, stopped with Esc, failed (committed by the next message), cut
// off — its record holds its parts in the order they streamed, and the history rebuilt from the
// record shows the reply as it was shown live.
func TestRecordedRepliesKeepTheirCardsPlaces(t *testing.T) {
	const want = "t:Let me look. c:a t: It says so. c:b t: So."
	for _, tc := range []struct {
		name  string
		end   func(h *harness) []Effect
		ended phase.EndReason
	}{
		{"complete", func(h *harness) []Effect {
			agenticReply(h, true)
			h.feed(doneUpdate())
			return h.end(complete(nil))
		}, phase.EndComplete},
		{"stopped", func(h *harness) []Effect {
			agenticReply(h, false)
			return h.c.Stop()
		}, phase.EndStopped},
		{"failed", func(h *harness) []Effect {
			agenticReply(h, true)
			h.feed(errorUpdate("the server went away"))
			return h.c.Submit("and now?")
		}, phase.EndFailed},
		{"cut off", func(h *harness) []Effect {
			agenticReply(h, true)
			return h.end(wire.Result{Outcome: wire.OutcomeComplete, FinishReason: "length"})
		}, phase.EndCutOff},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{Tools: fakeTools{}})
			h.do(h.c.Submit("hi"))
			live := h.c.Entries()[1]
			var reply *Record
			for _, r := range effectsOf[Record](tc.end(h)) {
				if r.Message != nil && r.Message.Role == "assistant" {
					reply = &r
					break
				}
			}
			if reply == nil || reply.Message.End.Why != tc.ended ||
				tc.ended == phase.EndFailed && reply.Message.End.Note != "the server went away" {
				t.Fatalf("no assistant record ended %q: %+v", tc.ended, reply)
			}
			if got := partsOf(live); got != want {
				t.Fatalf("live parts %q, want %q", got, want)
			}
			if got := wirePartsOf(*reply.Message); got != want {
				t.Fatalf("recorded parts %q, want %q", got, want)
			}
			history := []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}, *reply.Message}
			resumed := New(Config{}, history).Entries()[1]
			if got := partsOf(resumed); got != want {
				t.Fatalf("resumed parts %q, want %q", got, want)
			}
			if resumed.Text() != live.Text() || reply.Message.Text() != live.Text() {
				t.Fatalf("resumed text %q, recorded %q, live %q", resumed.Text(), reply.Message.Text(), live.Text())
			}
		})
	}
}

// FuzzPartsFollowTheStream: however a reply interleaves text and calls (each byte of script a
// frame: a multiple of 3 starts a call, anything else is a piece of text), its parts are in the
// order the frames came, live on the transcript, in the history the engine commits, and in
// the transcript rebuilt from that history.
func FuzzPartsFollowTheStream(f *testing.F) {
	f.Add([]byte{1, 0, 2, 3, 6, 4})
	f.Add([]byte{0, 1, 1, 3})
	f.Add([]byte{3, 6, 9})
	f.Add([]byte{1, 2, 4})
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) > 40 {
			script = script[:40]
		}
		h := newHarness(t, Config{Tools: fakeTools{}})
		h.do(h.c.Submit("hi"))
		var want []string
		afterText := false // the last part is text
		for i, b := range script {
			if b%3 == 0 {
				id := fmt.Sprintf("c%d", i)
				h.feed(toolFrame("now", start(id, "now"), delta(id, "{}")))
				want, afterText = append(want, "c:"+id), false
				continue
			}
			piece := fmt.Sprintf("<%d>", b)
			h.feed(text(piece))
			if afterText {
				want[len(want)-1] += piece
			} else {
				want, afterText = append(want, "t:"+piece), true
			}
		}
		layout := strings.Join(want, " ")
		live := h.c.Entries()[1]
		if got := partsOf(live); got != layout {
			t.Fatalf("live parts %q, want %q", got, layout)
		}
		var readies []phase.CallEvent
		for _, call := range h.c.step.calls.List() {
			readies = append(readies, ready(call.ID))
		}
		h.feed(doneUpdate(readies...))
		for _, call := range h.c.step.calls.List() {
			if call.Status == phase.CallRunning {
				h.toolDone(call.ID, "ok", false)
			}
		}
		h.end(complete(nil))
		if len(h.c.History) < 2 {
			if layout != "" {
				t.Fatalf("no reply committed for %q", layout)
			}
			return
		}
		if got := wirePartsOf(h.c.History[1]); got != layout {
			t.Fatalf("committed parts %q, want %q", got, layout)
		}
		if got := partsOf(New(Config{}, h.c.History).Entries()[1]); got != layout {
			t.Fatalf("resumed parts %q, want %q", got, layout)
		}
	})
}
