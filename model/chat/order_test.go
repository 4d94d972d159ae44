package chat

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream"
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

// withText is a frame that carries text and call events at once.
func withText(d string, calls ...phase.CallEvent) stream.Update {
	u := text(d)
	u.Calls = calls
	return u
}

// The engine puts each frame's text and cards in the reply in the order the stream sent them;
// the history's assistant message still holds the text whole.
func TestRepliesKeepWireOrder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frames []stream.Update
		want   string
	}{
		{"text, then a tool", []stream.Update{text("Let me look."), toolFrame("now", start("a", "now"), delta("a", "{}"))}, "t:Let me look. c:a"},
		{"a tool, then text", []stream.Update{toolFrame("now", start("a", "now"), delta("a", "{}")), withText("It is ", ready("a")), text("noon.")}, "c:a t:It is noon."},
		{"text around two tools", []stream.Update{text("One"), toolFrame("now", start("a", "now")), toolFrame("now", start("b", "now")), text(" two"), toolFrame("now", start("c", "now"))}, "t:One c:a c:b t: two c:c"},
		{"a start held back until the text after it", []stream.Update{text("x"), withText("y", start("a", "now"), delta("a", "{}"), ready("a")), text("z")}, "t:x c:a t:yz"},
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
			var reply *stream.Message
			for i := range h.c.History {
				if h.c.History[i].Role == "assistant" {
					reply = &h.c.History[i]
					break
				}
			}
			if reply == nil || reply.Content != e.Text() {
				t.Fatalf("history's reply %+v, entry text %q", reply, e.Text())
			}
		})
	}
}
