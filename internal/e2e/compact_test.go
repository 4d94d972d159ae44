package e2e

import (
	"bytes"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// strictCompact answers every turn with a now call and its result quoted, but only to a history
// a strict API accepts; a side request (the summary) gets the text scenario.
const strictCompact = `description A now call, then its result quoted, to a history a strict API accepts.
strict valid-history
followup quote
call call_sc1 "now"
args "{}"
finish tool_calls
`

// After /compact the next request carries the summary and not the turns it stands for, keeps
// the last turns whole with their calls answered, and is a history the strict server accepts,
// in each of the three formats.
func TestCompactedRequestIsAValidHistoryInEachWire(t *testing.T) {
	srv := newServer(t, fixtures.Options{Side: "text"}, map[string]string{"strict-compact": strictCompact})
	reg := newRegistry(t, nil, "")
	for _, w := range []wire.Wire{wire.WireChat, wire.WireAnthropic, wire.WireResponses} {
		t.Run(string(w), func(t *testing.T) {
			s := newSessionOn(t, srv, w, chat.Config{Model: "strict-compact"}, nil, reg, nil)
			for _, q := range []string{"alpha-question", "beta-question", "gamma-question"} {
				s.submit(q)
				s.expectComplete()
			}
			s.d.Apply(s.chat().Compact("the times"))
			s.until("the summary is made", func() bool {
				return !s.chat().State.Phase.Streaming()
			})
			if cp := s.chat().Compacted(); cp.Turns != 1 || cp.Summary == "" {
				t.Fatalf("compaction %+v; last entry %q", cp, s.lastReply())
			}
			ask := s.srv.Last(t).Raw
			if bytes.Contains(ask, []byte(`"tools"`)) || !bytes.Contains(ask, []byte("Keep above all: the times")) {
				t.Fatalf("the summary request:\n%s", ask)
			}
			before := len(srv.Requests())
			s.submit("delta-question")
			s.expectComplete()
			next := srv.Requests()[before].Raw
			for _, want := range []string{chat.SummaryHeading, cpSummary(s), "beta-question", "gamma-question", "delta-question"} {
				if !bytes.Contains(next, []byte(want)) {
					t.Errorf("the next request lacks %q:\n%s", want, next)
				}
			}
			if bytes.Contains(next, []byte("alpha-question")) {
				t.Errorf("the next request still carries the summarised turn:\n%s", next)
			}
		})
	}
}

// cpSummary is the start of the summary in force, as a request carries it.
func cpSummary(s *session) string {
	sum := s.chat().Compacted().Summary
	if len(sum) > 20 {
		sum = sum[:20]
	}
	return sum
}

// A conversation too long for the model, in each format's own shape of the error: Retry
// cannot help, the composer has the focus, and the error offers /compact beside /new.
func TestTooLongOffersCompactInEachWire(t *testing.T) {
	srv := newServer(t, fixtures.Options{}, nil)
	for _, w := range []wire.Wire{wire.WireChat, wire.WireAnthropic, wire.WireResponses} {
		t.Run(string(w), func(t *testing.T) {
			s := newSessionOn(t, srv, w, chat.Config{Model: "http-400"}, nil, nil, nil)
			s.submit("hello")
			st := s.chat().State
			if st.Phase != phase.Error || !strings.Contains(st.Reason, "/compact summarises the older turns, /new starts a new conversation") {
				t.Fatalf("%s %q", st.Phase, st.Reason)
			}
			if !s.chat().RetryCannotHelp() || s.chat().Focus() != phase.FocusComposer {
				t.Fatalf("Retry is offered for a conversation too long: focus %v", s.chat().Focus())
			}
		})
	}
}
