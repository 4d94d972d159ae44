package view

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/safe"
)

// A hostile tool name reads the same on its card and on the status line: one rendering.
func TestToolNameReadsTheSameOnTheCardAndTheStatusLine(t *testing.T) {
	for _, name := range []string{"list_dir\x1b]0;pwned\x07", `say"[x]"{y}`, "plain_name", "  "} {
		f := hostileFrame(assistantWith(draftCard{Name: name, Status: phase.CallRunning}))
		f.State = phase.State{Phase: phase.StreamingTool, Tool: name}
		scr := NewRenderer(PlainStyles()).Render(f)
		want := safe.ToolName(name)
		if n := strings.Count(scr.Content, want); n < 2 {
			t.Fatalf("%q: the screen shows %q %d times, want the card and the status line:\n%s", name, want, n, scr.Content)
		}
		if other := safe.Line(name); strings.TrimSpace(other) != "" && other != want && strings.Contains(scr.Content, other) {
			t.Fatalf("%q: the screen also shows it as %q:\n%s", name, other, scr.Content)
		}
	}
}
