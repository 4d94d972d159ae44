package stream

import (
	"bytes"
	"strings"
	"testing"
)

// replay --json and --trace write C1 controls (U+0080–U+009F) as \u escapes, never raw.
func TestReplayJSONEscapesC1Controls(t *testing.T) {
	rec := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\u0085b\u009bc\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	for _, format := range []ReplayFormat{ReplayJSON, ReplayTrace} {
		var out bytes.Buffer
		if _, err := Replay(strings.NewReader(rec), "", format, &out, func(s string) string { return s }); err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(out.Bytes(), []byte("\u0085")) || bytes.Contains(out.Bytes(), []byte("\u009b")) {
			t.Errorf("format %v wrote a raw C1 control:\n%q", format, out.String())
		}
		if !strings.Contains(out.String(), `\u0085`) || !strings.Contains(out.String(), `\u009b`) {
			t.Errorf("format %v lost the characters:\n%q", format, out.String())
		}
	}
}
