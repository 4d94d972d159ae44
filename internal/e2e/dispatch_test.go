package e2e

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// The demo's "what time is it" runs `now` while the stream is still open, and the final reply
// quotes the time. Proof of the first part: the server holds [DONE] back until `now` has read
// the clock; were the tool dispatched only after the stream, [DONE] would wait out the
// server's patience for it (half the test's) and the test would fail.
func TestDemoRunsNowWhileTheStreamIsOpen(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	started := make(chan struct{})
	var once sync.Once
	reg := newRegistry(t, func() time.Time {
		once.Do(func() { close(started) })
		return fixedNow
	}, "")
	srv.holdDone(started)

	s := newSession(t, srv, chat.Config{Model: fixtures.DemoModel}, nil, reg, nil)
	var order []string // what the engine saw, in order
	s.observe = func(msg any, effects []chat.Effect) {
		switch m := msg.(type) {
		case chat.StreamMsg:
			if !m.More {
				order = append(order, "stream end")
			}
		case chat.ToolDoneMsg:
			order = append(order, "result of "+m.CallID)
		}
		for _, e := range effects {
			if run, ok := e.(chat.RunTool); ok {
				order = append(order, "run "+run.Call.Name)
			}
		}
	}
	s.submit("what time is it")
	s.expectComplete()

	if srv.gateMissed.Load() {
		t.Fatalf("[DONE] waited half the test's patience for `now` to start: the tool did not run while the stream was open (order %q)", order)
	}
	if len(order) == 0 || order[0] != "run now" {
		t.Fatalf("the first thing the engine did must be to run now, before the stream ended; order %q", order)
	}
	if reply := s.lastReply(); !strings.Contains(reply, nowText) {
		t.Fatalf("the final reply does not quote the time %q:\n%s", nowText, reply)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the question, then the result)", len(reqs))
	}
	mustValidate(t, reqs[1])
	if tm := toolMessages(reqs[1]); len(tm) != 1 || tm[0].text() != nowText {
		t.Fatalf("the follow-up must carry now's result %q: %+v", nowText, tm)
	}
	t.Logf("order: %s", strings.Join(order, " → "))
}

// P6 (docs/architecture.md, Performance): on tool-then-text, the tool starts while frames are still to come before
// [DONE]. Measured two ways: from the engine (the frame whose update dispatched list_dir, and
// the frame number of [DONE]), and from the server (data frames it had written when the
// tool's result came back, against all it writes).
func TestP6EarlyDispatchFigure(t *testing.T) {
	const pace = 0.25 // the scenario's 1 s pause after the call becomes 250 ms
	srv := newServer(t, fixtures.Options{Pace: pace}, nil)
	reg := newRegistry(t, nil, "")
	s := newSession(t, srv, chat.Config{Model: "tool-then-text"}, nil, reg, nil)

	var dispatchFrame, doneFrame, framesAtStart, total int
	var writtenAtResult int64 = -1
	var startedAt, resultAt, endAt time.Time
	s.observe = func(msg any, effects []chat.Effect) {
		switch m := msg.(type) {
		case chat.StreamMsg:
			for _, u := range updatesOf(m) {
				if u.Frame.Data == "[DONE]" && doneFrame == 0 {
					doneFrame = u.N
				}
			}
			if !m.More && endAt.IsZero() { // the first response is all written; no other yet
				endAt, total = time.Now(), int(srv.frames.Load())
			}
		case chat.ToolDoneMsg:
			if writtenAtResult < 0 {
				writtenAtResult, resultAt = srv.frames.Load(), time.Now()
			}
		}
		for _, e := range effects {
			if _, ok := e.(chat.RunTool); ok && dispatchFrame == 0 {
				ups := updatesOf(msg.(chat.StreamMsg)) // a pull ends with the update that readies a call
				dispatchFrame, framesAtStart, startedAt = ups[len(ups)-1].N, int(srv.frames.Load()), time.Now()
			}
		}
	}
	s.submit("show me the directory")
	s.expectComplete()

	if dispatchFrame == 0 || doneFrame == 0 {
		t.Fatalf("dispatched at frame %d, [DONE] at frame %d: both must be seen", dispatchFrame, doneFrame)
	}
	ahead := doneFrame - dispatchFrame - 1
	if ahead <= 0 {
		t.Fatalf("list_dir was dispatched at frame %d and [DONE] is frame %d: no frame came after the tool started", dispatchFrame, doneFrame)
	}
	t.Logf("P6 tool-then-text: list_dir dispatched on frame %d of %d; %d frames still to come before [DONE] (frame %d)",
		dispatchFrame, doneFrame-1, ahead, doneFrame)
	t.Logf("P6 server side: %d of %d data frames written at dispatch, %d when the result came back; result %v after dispatch, stream end %v after dispatch (pace %v)",
		framesAtStart, total, writtenAtResult, resultAt.Sub(startedAt).Round(time.Microsecond), endAt.Sub(startedAt).Round(time.Millisecond), pace)
}

// updatesOf returns the updates one pull carried, in order.
func updatesOf(m chat.StreamMsg) []wire.Update {
	return append([]wire.Update{m.Update}, m.Rest...)
}
