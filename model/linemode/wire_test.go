package linemode

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// A whole tool-using turn in accessible mode in each wire format: the call runs, the answer
// quoting its result is said, and the header names the format.
func TestPipeToolTurnInEachWire(t *testing.T) {
	for _, wire := range []wire.Wire{wire.WireAnthropic, wire.WireResponses} {
		t.Run(string(wire), func(t *testing.T) {
			var out syncBuffer
			o := sessionOptions(t, fixtureURL(t), string(wire)+"-tool", t.TempDir(), false, pipeWith(t, "list the files"), &out)
			o.Performer.Client.Wire = wire
			o.To.Wire = wire.Label()
			if err := start(t, o)(); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			for _, want := range []string{", " + wire.Label() + ".", "Assistant: Let me list the directory.",
				"Tool results received: list_dir → ", "Status: Answer ready."} {
				if !strings.Contains(got, want) {
					t.Errorf("no %q in\n%s", want, got)
				}
			}
		})
	}
}
