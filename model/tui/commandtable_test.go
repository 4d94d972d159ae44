package tui

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
)

// The full screen takes exactly the engine's command table: every command and other name in it
// runs (none is answered as unknown, none is sent), and a name the table lacks is unknown.
func TestTUITakesTheCommandTable(t *testing.T) {
	args := map[chat.CommandID]string{chat.CommandSystem: " be brief", chat.CommandCopy: " code 1"}
	for _, c := range chat.Commands {
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			h := newHarness(t, "text", 80, 24)
			h.submit(name + args[c.ID])
			if strings.Contains(h.m.ed.note, "Unknown command") || len(h.server.requests()) != 0 {
				t.Errorf("%s: %q, %d requests", name, h.m.ed.note, len(h.server.requests()))
			}
		}
	}
	h := newHarness(t, "text", 80, 24)
	h.submit("/frobnicate")
	if !strings.Contains(h.m.ed.note, "Unknown command /frobnicate") {
		t.Errorf("an unknown command: %q", h.m.ed.note)
	}
}
