package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// failWith is the end of a stream that failed with e: the error update, as the decoder gives it.
func failWith(e *wire.Error) wire.Update {
	u := errorUpdate(e.Message)
	u.Err = e
	return u
}

func TestAnInterruptedCallSaysWhyItEnded(t *testing.T) {
	stall := &wire.Error{Message: "No data from the server for 2s", Cause: wire.ErrStall}
	reset := &wire.Error{Message: "The connection to h was reset before the reply finished",
		Cause: fmt.Errorf("%w: x", wire.ErrConnectionDropped)}
	cut := &wire.Error{Message: "The server closed the stream before finishing (no [DONE])", Cause: wire.ErrTruncated}
	cases := []struct {
		name         string
		err          *wire.Error
		pending, ran string // what the half-received call's card and the running call's card say
	}{
		{"a stall", stall,
			"not run: the server stalled before its arguments were complete (No data from the server for 2s)",
			"interrupted: the server stalled while this tool ran; the tool was stopped (No data from the server for 2s)"},
		{"a dropped connection", reset,
			"not run: the connection dropped before its arguments were complete (The connection to h was reset before the reply finished)",
			"interrupted: the connection dropped while this tool ran; the tool was stopped (The connection to h was reset before the reply finished)"},
		{"a cut-off stream", cut,
			"not run: its arguments were cut off (The server closed the stream before finishing (no [DONE]))",
			"interrupted: the reply was cut off while this tool ran; the tool was stopped (The server closed the stream before finishing (no [DONE]))"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{Tools: fakeTools{}})
			h.do(h.c.Submit("go"))
			h.feed(toolFrame("now", start("a", "now"), delta("a", "{}"), ready("a")))
			h.feed(toolFrame("lookup", start("b", "lookup"), delta("b", `{"q":`)))
			h.feed(failWith(tc.err))
			h.expectPhase(phase.Error, "")
			cards := h.c.Entries()[len(h.c.Entries())-1].Cards()
			if cards[1].Result() != tc.pending || cards[0].Result() != tc.ran {
				t.Fatalf("cards say\n  %q\n  %q\nwant\n  %q\n  %q", cards[0].Result(), cards[1].Result(), tc.ran, tc.pending)
			}
			for _, c := range cards {
				if strings.Contains(c.Result(), "user") {
					t.Errorf("%s is blamed on the user: %q", tc.name, c.Result())
				}
			}
			if len(h.c.History) != 1 {
				t.Fatalf("a failure must leave the history for Retry: %+v", h.c.History)
			}
			// A new message instead of Retry: the model reads what ran and why it ended.
			effects := h.do(h.c.Submit("and now?"))
			if got := roles(h.c.History); strings.Join(got, ",") != "user,assistant,tool,user" {
				t.Fatalf("history roles %v", got)
			}
			if res := h.c.History[2]; res.ToolCallID != "a" || res.Text() != tc.ran {
				t.Errorf("the model reads %q for the interrupted call", res.Text())
			}
			if calls := h.c.History[1].Calls(); len(calls) != 1 {
				t.Errorf("the half-received call must not be sent back: %+v", calls)
			}
			if recs := finalRecords(effects); len(recs) != 3 || recs[1].Message.Text() != tc.ran {
				t.Errorf("the session log must get the interrupted reply and its result: %+v", recs)
			}
		})
	}
	t.Run("the user stopped", func(t *testing.T) {
		h := newHarness(t, Config{Tools: fakeTools{}})
		h.do(h.c.Submit("go"))
		h.feed(toolFrame("now", start("a", "now"), delta("a", "{}"), ready("a")))
		h.do(h.c.Stop())
		if got := h.c.Entries()[len(h.c.Entries())-1].Cards()[0].Result(); got != "stopped by the user" {
			t.Errorf("card %q", got)
		}
		if got := h.c.History[2].Text(); got != "stopped by the user" {
			t.Errorf("history %q", got)
		}
	})
	t.Run("Retry forgets the failed reply", func(t *testing.T) {
		h := newHarness(t, Config{Tools: fakeTools{}})
		h.do(h.c.Submit("go"))
		h.feed(toolFrame("now", start("a", "now"), delta("a", "{}"), ready("a")))
		h.feed(failWith(stall))
		h.do(h.c.Retry())
		h.feed(text("fine"))
		h.feed(doneUpdate())
		h.end(complete(nil))
		h.do(h.c.Submit("next"))
		if got := strings.Join(roles(h.c.History), ","); got != "user,assistant,user" {
			t.Errorf("history after Retry %s", got)
		}
	})
}

func TestAnInvalidCallGoesBackToTheModelUnasked(t *testing.T) {
	problem := "invalid arguments for write_note: missing property 'text'"
	h := newHarness(t, Config{CanAsk: true, Tools: fakeTools{
		sideEffects: map[string]bool{"write_note": true},
		invalid:     map[string]string{`{"txt":"hi"}`: problem},
	}})
	h.do(h.c.Submit("note it"))
	h.feed(toolFrame("write_note", start("w1", "write_note"), delta("w1", `{"txt":"hi"}`)))
	h.feed(doneUpdate(ready("w1")))
	if h.c.Asking() || len(effectsOf[RunTool](h.effects)) != 0 {
		t.Fatal("a call that fails its schema was put to the user")
	}
	effects := h.end(complete(nil))
	if len(effectsOf[OpenStream](effects)) != 1 {
		t.Fatalf("the turn must continue so the model reads the problem: %+v", effects)
	}
	if got := h.c.History[2]; got.Role != "tool" || got.Text() != problem {
		t.Fatalf("the model reads %+v", got)
	}
}
