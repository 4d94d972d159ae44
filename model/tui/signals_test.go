package tui

import (
	"syscall"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
)

// recorded is a session log that keeps what it is given.
type recorded struct{ records []chat.Record }

func (r *recorded) Add(rec chat.Record) { r.records = append(r.records, rec) }

// SIGHUP, SIGTERM and SIGINT end the turn as Ctrl+C does: the request is cancelled, the
// partial reply is recorded, and only then does the program quit.
func TestSignalsEndTheTurnBeforeQuitting(t *testing.T) {
	for _, msg := range []tea.Msg{SignalMsg{syscall.SIGHUP}, SignalMsg{syscall.SIGTERM}, tea.InterruptMsg{}} {
		h := newHarness(t, "text", 80, 24)
		log := &recorded{}
		h.m.log = log
		h.submit("hello")
		h.feedStream()
		h.feedStream()
		if !h.m.Chat().State.Phase.Streaming() {
			t.Fatalf("%T: not streaming", msg)
		}
		next, cmd := h.m.Update(msg)
		h.m = next.(*Model)
		if h.m.Chat().State.Phase.Streaming() {
			t.Fatalf("%v: still %s", msg, h.m.Chat().State.Phase)
		}
		quit := false
		runCmd(cmd, func(m tea.Msg) {
			if _, ok := m.(tea.QuitMsg); ok {
				quit = true
				for i, r := range h.server.requests() {
					if r.ctx.Err() == nil {
						t.Fatalf("%v: request %d is still open when the program quits", msg, i+1)
					}
				}
			}
		})
		if !quit {
			t.Fatalf("%v did not quit", msg)
		}
		partial := false
		for _, r := range log.records {
			if r.Message != nil && r.Message.Role == "assistant" && r.Message.Text() != "" {
				partial = true
			}
		}
		if !partial {
			t.Fatalf("%v: the partial reply was not recorded: %+v", msg, log.records)
		}
	}
}

// A model switched to from the picker is recorded in the session log.
func TestModelSwitchReachesTheLog(t *testing.T) {
	h := newHarness(t, "text", 80, 24)
	log := &recorded{}
	h.m.log = log
	h.m, _ = h.m.switchModel(ModelItem{Provider: "groq", Model: "llama"})
	if len(log.records) != 1 || log.records[0].Model != "groq/llama" {
		t.Fatalf("records %+v", log.records)
	}
}
