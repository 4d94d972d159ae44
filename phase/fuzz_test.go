package phase

import (
	"fmt"
	"strings"
	"testing"
)

// callEvents decodes fuzz bytes into CallEvents over four ids: each event takes a type byte,
// an id byte and, for deltas, a length byte and that many bytes of argument text.
func callEvents(data []byte) []CallEvent {
	types := []CallEventType{CallStart, CallDelta, CallReady, CallAsk, CallQueue, CallRun, CallResult, CallRefuse, CallDecline, CallInterrupt, "bogus"}
	var evs []CallEvent
	for len(data) >= 2 {
		ev := CallEvent{Type: types[int(data[0])%len(types)], ID: fmt.Sprintf("c%d", data[1]%4)}
		data = data[2:]
		switch ev.Type {
		case CallStart:
			ev.Name = "tool" + ev.ID
		case CallDelta:
			if len(data) > 0 {
				n := min(int(data[0])%8, len(data)-1)
				ev.ArgsTextDelta, data = string(data[1:1+n]), data[1+n:]
			}
		case CallResult:
			ev.Result = ToolResult{Output: "r", IsError: data != nil && len(data)%2 == 0}
		case CallRefuse:
			ev.Result = ToolResult{Output: "e"}
		case CallInterrupt:
			ev.Why = Interruption{Why: CutByUser}
		}
		evs = append(evs, ev)
	}
	return evs
}

var statusRank = map[CallStatus]int{CallPending: 0, CallArgsReady: 1, CallAsking: 2, CallQueued: 3, CallRunning: 4,
	CallDone: 5, CallError: 5, CallDeclined: 5, CallInterrupted: 5}

func FuzzToolCalls(f *testing.F) {
	f.Add([]byte("\x00\x00\x01\x00\x03{\"q\x01\x00\x02\":1\x01\x00\x01}\x02\x00\x03\x00"))
	f.Add([]byte("\x00\x01\x00\x02\x01\x01\x02{}\x01\x02\x01[\x02\x01\x02\x02\x04\x02\x03\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := NewToolCalls()
		prev := map[string]ToolCall{}
		var order []string
		for _, ev := range callEvents(data) {
			m.Apply(ev)
			if ev.Type == CallStart {
				if _, seen := prev[ev.ID]; !seen {
					order = append(order, ev.ID)
				}
			}
			for _, c := range m.List() {
				before, existed := prev[c.ID]
				if !existed {
					if c.Status != CallPending || ev.Type != CallStart {
						t.Fatalf("call %s appeared as %s on %s", c.ID, c.Status, ev.Type)
					}
				} else {
					if before.Status.Final() && (c.Status != before.Status || c.Result != before.Result || c.Interruption != before.Interruption) {
						t.Fatalf("call %s left final %s for %s on %s", c.ID, before.Status, c.Status, ev.Type)
					}
					if statusRank[c.Status] < statusRank[before.Status] {
						t.Fatalf("call %s went back from %s to %s", c.ID, before.Status, c.Status)
					}
					if c.Status == CallDone && before.Status != CallDone && before.Status != CallRunning {
						t.Fatalf("call %s reached done from %s", c.ID, before.Status)
					}
					if !strings.HasPrefix(c.ArgsText, before.ArgsText) {
						t.Fatalf("call %s args shrank: %q -> %q", c.ID, before.ArgsText, c.ArgsText)
					}
					if c.ArgsText != before.ArgsText && before.Status != CallPending {
						t.Fatalf("call %s args grew while %s", c.ID, before.Status)
					}
				}
				prev[c.ID] = c
			}
			list := m.List()
			if len(list) != len(order) {
				t.Fatalf("List has %d calls, %d started", len(list), len(order))
			}
			for i, c := range list {
				if c.ID != order[i] {
					t.Fatalf("List order %d is %s, want %s", i, c.ID, order[i])
				}
			}
		}
	})
}

// FuzzReduce folds random events and checks the reducer against its own table: the phase moves
// only along Transitions, text only grows (and only on text), and done never leaves error.
func FuzzReduce(f *testing.F) {
	f.Add([]byte{0, 3, 1, 1, 6})                // submit, tool, text, text, done
	f.Add([]byte{0, 1, 5, 6, 0, 7, 6})          // submit, text, error, done, submit, stop, done
	f.Add([]byte{0, 2, 4, 3, 1, 7, 1, 5, 0, 6}) // reasoning, tool work, tool, text, stop, late frames
	f.Fuzz(func(t *testing.T, data []byte) {
		var s State
		for i, b := range data {
			ev := Event{Kind: Kind(b % uint8(len(Kinds))), Delta: strings.Repeat("x", i%3), Tool: []string{"", "a", "b"}[i%3], Error: "e"}
			before := s
			s = Reduce(s, ev)
			to, ok := Next(before.Phase, ev.Kind)
			if !ok {
				to = before.Phase
			}
			if s.Phase != to {
				t.Fatalf("%s + %s gave %s, table says %s", before.Phase, ev.Kind, s.Phase, to)
			}
			if !ok && (s.Text.String() != before.Text.String() || s.Tool != before.Tool || s.Reason != before.Reason) {
				t.Fatalf("%s + %s was ignored by the table but changed the state", before.Phase, ev.Kind)
			}
			if ev.Kind != KindSubmit && !strings.HasPrefix(s.Text.String(), before.Text.String()) {
				t.Fatalf("text shrank on %s", ev.Kind)
			}
			if ev.Kind != KindText && ev.Kind != KindSubmit && s.Text.Len() != before.Text.Len() {
				t.Fatalf("%s changed the text", ev.Kind)
			}
			if before.Phase == Error && ev.Kind == KindDone && s.Phase != Error {
				t.Fatal("done after error left error")
			}
			if s.Phase.Streaming() && s.Stopped {
				t.Fatal("streaming and stopped at once")
			}
		}
	})
}
