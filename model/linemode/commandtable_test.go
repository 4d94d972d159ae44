package linemode

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
)

// Line mode takes exactly the engine's command table: every command and other name in it runs
// (none is answered as unknown, none is sent), and a name the table lacks is unknown.
func TestLineModeTakesTheCommandTable(t *testing.T) {
	base := fixtureURL(t)
	args := map[chat.CommandID]string{chat.CommandSystem: " be brief", chat.CommandCopy: " code 1"}
	for _, c := range chat.Commands {
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			var out syncBuffer
			o := sessionOptions(t, base, "text", t.TempDir(), false, pipeWith(t, name+args[c.ID]+"\n"), &out)
			if err := start(t, o)(); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); strings.Contains(got, "Unknown command") || strings.Contains(got, "Writing a reply") {
				t.Errorf("%s:\n%s", name, got)
			}
		}
	}
	var out syncBuffer
	o := sessionOptions(t, base, "text", t.TempDir(), false, pipeWith(t, "/frobnicate\n"), &out)
	if err := start(t, o)(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Unknown command /frobnicate") {
		t.Errorf("an unknown command:\n%s", out.String())
	}
}
