package wire

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// fuzzWire decodes an SSE body in format as (framed by the reference rule, which the stream
// package's framer is held to by FuzzFramer) and checks what must always hold
// (checkBlockInvariants: one end, the outcome one of the four, every call started once and
// ready or failed at most once, the machine's arguments the reply's), and that a decoder whose
// text is left to its caller gives the same updates.
func fuzzWire(t *testing.T, as Wire, body []byte) {
	ups, res := decodeBody(as, string(body))
	checkBlockInvariants(t, ups, res)
	checkLeftTextChangesNoUpdate(t, as, body, ups)
	if res.Outcome == OutcomeComplete {
		for _, u := range ups {
			for _, ev := range u.Events {
				if ev.Kind == phase.KindError {
					t.Fatalf("an error event in a complete stream: %+v", u)
				}
			}
		}
	}
}

// checkLeftTextChangesNoUpdate checks that a decoder of format as whose text is left to its
// caller gives body the updates ups, as decodeBody does.
func checkLeftTextChangesNoUpdate(t *testing.T, as Wire, body []byte, ups []Update) {
	t.Helper()
	left := NewFrameDecoder(as)
	left.LeaveText()
	var leftUps []Update
	for _, f := range sseFrames(string(body)) {
		if left.Ended() {
			break
		}
		leftUps = append(leftUps, left.Frame(f))
	}
	if leftUps = append(leftUps, left.End(nil)); !reflect.DeepEqual(leftUps, ups) {
		t.Fatalf("with the text left to the caller the updates are\n%+v\nnot\n%+v", leftUps, ups)
	}
}

// addCorpusSeeds adds the recordings of one provider folder, when present (never copied in).
func addCorpusSeeds(f *testing.F, provider string) {
	for _, dir := range []string{filepath.Join("..", "..", "..", "shared", "corpus"), "/work/shared/corpus"} {
		paths, _ := filepath.Glob(filepath.Join(dir, provider, "*.sse"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
		if len(paths) > 0 {
			return
		}
	}
}

func FuzzAnthropicDecode(f *testing.F) {
	tool := aBlock(0, `{"type":"tool_use","id":"t","name":"f","input":{}}`)
	for _, body := range []string{
		sseBody("", aStart, "", tool, "", aArgs(0, `{"a":`), "", aArgs(0, `1}`), "", aBlockStop(0), "", aDeltaTool, "", aStop),
		sseBody("", aStart, "", tool, "", aBlockStop(0), "", tool, "", aBlockStop(0), "", aStop),
		sseBody("", aStart, "", aBlock(0, `{"type":"thinking","thinking":"x"}`), "", aDelta(0, `{"type":"signature_delta","signature":"s"}`),
			"error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
		sseBody("", aStart, "", tool, "", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`, "", aStop),
		"event: message_start\ndata: {\"type\":\"message_start\"}\n\ndata: not json\n\n",
	} {
		f.Add([]byte(body))
	}
	addCorpusSeeds(f, "anthropic")
	f.Fuzz(func(t *testing.T, body []byte) { fuzzWire(t, WireAnthropic, body) })
}

func FuzzResponsesDecode(f *testing.F) {
	for _, body := range []string{
		sseBody("", rCall(0, "fc_1", "c1", "add"), "", rCall(1, "fc_2", "c2", "mul"), "", rArgs(0, "fc_1", `{"a":1}`),
			"", rArgs(1, "fc_2", `{}`), "", rArgsDone(1, "fc_2", `{}`), "", rArgsDone(0, "fc_1", `{"a":1}`), "", rCompleted("completed")),
		sseBody("", rCall(0, "fc_1", "c1", "f"), "", rCall(0, "fc_1", "c1", "f"), "", rArgsDone(0, "", "{}"),
			"", `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"f","arguments":"{}"}}`,
			"", rCompleted("completed")),
		sseBody("", rText("m", "a"), "", `{"type":"response.output_text.done","item_id":"m","text":"abc"}`,
			"", `{"type":"response.reasoning_summary_text.delta","item_id":"r","summary_index":1,"delta":"x"}`,
			"", `{"type":"response.incomplete","response":{"status":"incomplete"}}`),
		sseBody("", rText("m", "a"), "error", `{"type":"error","message":"boom"}`, "", `{"type":"response.failed","response":{"error":{"message":"x"}}}`),
		"data: {\"type\":\"response.created\"}\n\ndata: [1]\n\n",
	} {
		f.Add([]byte(body))
	}
	addCorpusSeeds(f, "openai-responses")
	f.Fuzz(func(t *testing.T, body []byte) { fuzzWire(t, WireResponses, body) })
}

// TestFuzzSeedsOfEachWire: the seed corpora in testdata/fuzz are of their format.
func TestFuzzSeedsOfEachWire(t *testing.T) {
	for target, marker := range map[string]string{"FuzzAnthropicDecode": "message_start", "FuzzResponsesDecode": "response."} {
		paths, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
		if len(paths) == 0 {
			t.Errorf("no seed corpus for %s", target)
		}
		for _, p := range paths {
			if data, _ := os.ReadFile(p); !strings.Contains(string(data), marker) {
				t.Errorf("%s does not look like a %s seed", p, target)
			}
		}
	}
}
