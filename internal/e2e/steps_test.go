package e2e

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// --max-steps 1 ends the turn after the first request: the tool runs, its result is kept, no
// follow-up is sent, a notice says why; the next message continues with the result (T6).
func TestMaxStepsStopsTheLoopAndTheUserContinues(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	reg := newRegistry(t, nil, "")
	s := newSession(t, srv, chat.Config{Model: fixtures.DemoModel, MaxSteps: 1}, nil, reg, nil)
	s.submit("what time is it")
	s.expectComplete()

	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests in a turn of at most 1 step", n)
	}
	entries := s.chat().Entries()
	last := entries[len(entries)-1]
	if last.Role() != transcript.RoleNotice || !strings.Contains(last.Text(), "--max-steps 1") || !strings.Contains(last.Text(), "send a message to continue") {
		t.Fatalf("the last entry must be the step-limit notice: %+v", last)
	}
	if h := s.chat().History; len(h) != 3 || h[2].Role != "tool" || h[2].Text() != nowText {
		t.Fatalf("the tool result must be kept in the history: %+v", h)
	}

	s.submit("go on")
	s.expectComplete()
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests after continuing, want 2", len(reqs))
	}
	next := reqs[1]
	mustValidate(t, next)
	if tm := toolMessages(next); len(tm) != 1 || tm[0].text() != nowText {
		t.Fatalf("the continued request must carry the kept result: %+v", tm)
	}
	if last := next.Messages[len(next.Messages)-1]; last.Role != "user" || last.text() != "go on" {
		t.Fatalf("the continued request ends with %+v", last)
	}
	for _, e := range s.chat().Entries()[len(entries):] {
		if e.Role() == transcript.RoleNotice {
			t.Fatalf("a one-step turn without tools must not hit the limit: %+v", e)
		}
	}
}

// When the follow-up request fails, Retry re-sends exactly it — the tool results included,
// the tool not run again — and the turn completes.
func TestRetryResendsTheFailedFollowUp(t *testing.T) {
	const model = "retry"
	srv := newServer(t, fixtures.Options{}, map[string]string{model: oneCall(model, "now", "{}", "alternate http-500")})
	runs := 0
	reg := newRegistry(t, func() time.Time { runs++; return fixedNow }, "")
	s := newSession(t, srv, chat.Config{Model: model}, nil, reg, nil)
	s.submit("what time is it")
	if st := s.chat().State; st.Phase != phase.Error || !strings.Contains(st.Reason, "HTTP 500") {
		t.Fatalf("phase %s (%q), want the error of the follow-up", st.Phase, st.Reason)
	}
	s.d.Apply(s.chat().Retry())
	s.until("the turn is over", s.turnOver)
	s.expectComplete()
	reqs := srv.Requests()
	if len(reqs) != 3 || !bytes.Equal(reqs[1].Raw, reqs[2].Raw) {
		t.Fatalf("%d requests; the retry must equal the failed one:\n%s\n%s", len(reqs), reqs[1].Raw, reqs[len(reqs)-1].Raw)
	}
	mustValidate(t, reqs[2])
	if runs != 1 {
		t.Fatalf("now ran %d times, want 1", runs)
	}
	if !strings.Contains(s.lastReply(), nowText) {
		t.Fatalf("reply %q", s.lastReply())
	}
}
