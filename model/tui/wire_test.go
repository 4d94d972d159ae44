package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// A whole tool-using turn through Update in each wire format, over real HTTP: the call's card
// runs and is done, the follow-up's answer quotes its result; Esc stops a stalled call; an
// error event ends in the error phase with Retry focused, and Retry re-sends.
func TestToolTurnThroughUpdateInEachWire(t *testing.T) {
	for _, wire := range []wire.Wire{wire.WireAnthropic, wire.WireResponses} {
		t.Run(string(wire), func(t *testing.T) {
			reg, err := tools.NewRegistry(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			reg.Clean = safe.Text
			l := newLiveLoop(t, string(wire)+"-tool", live{tools: reg, wire: wire, stall: 2 * time.Minute})
			l.submit("list the files")
			l.until("the turn to end", func(m *Model) bool { return !m.Chat().State.Phase.Streaming() })
			l.settle()
			checkScreen(t, l.m, "end", answered())
			entries := l.m.Chat().Entries()
			var cards int
			for _, e := range entries {
				for _, c := range e.Cards() {
					cards++
					if c.Name() != "list_dir" || c.Status() != phase.CallDone {
						t.Errorf("card %+v", c)
					}
				}
			}
			if last := entries[len(entries)-1].Text(); cards != 1 || !strings.HasPrefix(last, "Tool results received: list_dir → ") {
				t.Fatalf("%d cards; the answer %q", cards, last)
			}
			if !strings.Contains(l.m.View().Content, "Tool results received") {
				t.Error("the answer is not on the screen")
			}
		})
	}
}

func TestEscAndRetryThroughUpdateInEachWire(t *testing.T) {
	for _, wire := range []wire.Wire{wire.WireAnthropic, wire.WireResponses} {
		t.Run(string(wire), func(t *testing.T) {
			reg, err := tools.NewRegistry(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			l := newLiveLoop(t, string(wire)+"-stall-between-tool-chunks", live{tools: reg, wire: wire})
			l.submit("read it")
			l.until("the call's card", func(m *Model) bool {
				es := m.Chat().Entries()
				return len(es) > 0 && len(es[len(es)-1].Cards()) == 1
			})
			l.send(keyEsc)
			l.settle()
			checkScreen(t, l.m, "after Esc", stopped())

			e := newLiveLoop(t, string(wire)+"-error-event", live{wire: wire})
			e.submit("hello")
			e.until("the error", func(m *Model) bool { return !m.Chat().State.Phase.Streaming() })
			e.settle()
			st := e.m.Chat().State
			if st.Phase != phase.Error || !strings.HasPrefix(st.Reason, "The server sent an error: ") {
				t.Fatalf("after the error event: %s %q", st.Phase, st.Reason)
			}
			checkScreen(t, e.m, "error", failed(phase.Status(st)))
			e.send(keyEnter) // Retry has the focus: the same request again
			if !e.m.Chat().State.Phase.Streaming() {
				t.Fatalf("Retry did not re-send: %s", e.m.Chat().State.Phase)
			}
			e.until("the retry's end", func(m *Model) bool { return !m.Chat().State.Phase.Streaming() })
			e.settle()
			if e.m.Chat().State.Phase != phase.Error {
				t.Errorf("the retried scenario fails again the same way: %s", e.m.Chat().State.Phase)
			}
		})
	}
}
