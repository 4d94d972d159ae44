package linemode

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view/safe"
)

// A hostile tool name reads the same in the tool lines and the status line.
func TestAToolNameHasOneRendering(t *testing.T) {
	name := "list_dir\x1b]0;pwned\a[x]{y}"
	var tr transcript.Transcript
	e := tr.Add(transcript.Spec{Role: transcript.RoleAssistant, Cards: []transcript.CardSpec{{Call: phase.ToolCall{ID: "c", Name: name}}}})
	card := &e.Cards()[0]
	status := safe.Line(phase.Status(phase.State{Phase: phase.StreamingTool, Tool: name}))
	shown := toolName(card)
	if !strings.Contains(status, "Working on "+shown+".") {
		t.Fatalf("the status line says %q, the tool lines %q", status, shown)
	}
	for _, line := range []string{toolStarted(card), toolWaiting(card), toolDone(card)} {
		if !strings.Contains(line, shown) {
			t.Errorf("%q does not name the tool as %q", line, shown)
		}
	}
}
