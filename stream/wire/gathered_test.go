package wire

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A decoder whose text is left to its caller gives the same updates, and the same result but
// for the text and reasoning, which it does not hold.
func TestLeftTextChangesOnlyTheResultsText(t *testing.T) {
	bodies := map[string]string{
		"anthropic-synthetic": sseBody("", aStart, "", aBlock(0, `{"type":"thinking","thinking":"x"}`), "",
			aDelta(0, `{"type":"thinking_delta","thinking":"more"}`), "", aBlockStop(0), "",
			aBlock(1, `{"type":"text","text":""}`), "", aDelta(1, `{"type":"text_delta","text":"Hi there"}`), "",
			aBlockStop(1), "", aDeltaTool, "", aStop),
	}
	for _, dir := range []string{filepath.Join("..", "..", "..", "shared", "corpus"), "/work/shared/corpus"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*", "*.sse"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				bodies[p] = string(data)
			}
		}
		if len(paths) > 0 {
			break
		}
	}
	texts := 0
	for name, body := range bodies {
		frames := sseFrames(body)
		if len(frames) == 0 {
			continue
		}
		as := DetectWire(frames[0])
		kept, left := NewFrameDecoder(as), NewFrameDecoder(as)
		left.LeaveText()
		for _, f := range frames {
			if kept.Ended() {
				break
			}
			if k, l := kept.Frame(f), left.Frame(f); !reflect.DeepEqual(k, l) {
				t.Fatalf("%s: frame %q gave %+v kept, %+v left", name, f.Data, k, l)
			}
		}
		if k, l := kept.End(nil), left.End(nil); !reflect.DeepEqual(k, l) {
			t.Fatalf("%s: the end gave %+v kept, %+v left", name, k, l)
		}
		want := kept.Result()
		texts += len(want.Message.Text()) + len(want.Message.Reasoning())
		want.Message.Parts = ReplyParts("", "", want.Message.Calls())
		if got := left.Result(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: left result %+v, want %+v", name, got, want)
		}
	}
	if texts == 0 {
		t.Fatal("no body held text to leave")
	}
}
