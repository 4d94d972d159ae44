package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

// catalogueOutcomes reads "a client ends in" from the catalogue in docs/fixtures.md: the phase
// ("complete" or "error") each scenario must end in; none for one that depends on the message.
func catalogueOutcomes(t *testing.T) map[string]string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "fixtures.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 || !strings.HasPrefix(cells[0], "`") {
			continue
		}
		name := strings.Trim(cells[0], "`")
		for _, p := range []string{"complete", "error"} {
			if strings.HasPrefix(cells[2], p) {
				out[name] = p
			}
		}
	}
	return out
}

// Every catalogued scenario, over real HTTP, ends its turn in the phase the catalogue names —
// never left streaming — with the screen that phase shows: status, controls and cursor
// (docs/architecture.md, Reliability). Stalls end by a 1s stall timeout. The built-in tools run in an empty directory. Two
// scenarios run at a time: huge-args and long are thousands of messages, slow under -race.
func TestEveryScenarioEndsInItsPhase(t *testing.T) {
	outcomes := catalogueOutcomes(t)
	if len(outcomes) < 30 {
		t.Fatalf("read only %d outcomes from docs/fixtures.md", len(outcomes))
	}
	running := make(chan struct{}, 2)
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			running <- struct{}{}
			defer func() { <-running }()
			reg, err := tools.NewRegistry(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			reg.Clean = safe.Text
			// Only the scenarios that stall by design get a short stall timeout; the others get
			// one no loaded machine reaches, so huge-args under -race is never cut off.
			stall := 2 * time.Minute
			if sc, ok := fixtures.Lookup(name); ok && sc.Stream.End == fixtures.EndStall {
				stall = time.Second
			}
			var format wire.Wire
			if sc, ok := fixtures.Lookup(name); ok {
				format, _ = wire.ParseWire(sc.Formats()[0]) // a raw scenario is asked in the format it is written in
			}
			l := newLiveLoop(t, name, live{stall: stall, tools: reg, wire: format})
			l.submit("hello")
			l.until("the turn to end", func(m *Model) bool { return !m.Chat().State.Phase.Streaming() })
			l.settle()
			st := l.m.Chat().State
			switch st.Phase {
			case phase.Complete:
				w := answered()
				if st.Reason != "" { // a reply the server cut off says so instead
					w.status = phase.Status(st)
				}
				checkScreen(t, l.m, "end", w)
			case phase.Error:
				w := failed(phase.Status(st))
				if name == "http-400" || name == "http-401" { // retrying as it stands cannot help: the composer first
					w = w.inComposer()
				}
				checkScreen(t, l.m, "end", w)
			default:
				t.Fatalf("the turn ended in %s", st.Phase)
			}
			if want, ok := outcomes[name]; ok && st.Phase.String() != want {
				t.Fatalf("ended in %s (%s), the catalogue says %s", st.Phase, phase.Status(st), want)
			}
		})
	}
}
