package wire

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The single-pass event scanners read what encoding/json reads: the same events, the same
// verdict on validity.
func checkEventScan(t *testing.T, payload string) {
	var a, aj anthropicEvent
	okA := decodeAnthropicEvent(payload, &a)
	// encoding/json has no notion of the lone halves the scanner reports besides the text.
	a.Delta.TextHalves, a.Delta.ThinkingHalves = lone{}, lone{}
	a.ContentBlock.TextHalves, a.ContentBlock.ThinkingHalves = lone{}, lone{}
	errA := json.Unmarshal([]byte(payload), &aj)
	validA := errA == nil || errors.As(errA, new(*json.UnmarshalTypeError))
	if okA != validA || okA && !reflect.DeepEqual(a, aj) && errA == nil {
		t.Fatalf("anthropic %q:\nscan %v %+v\njson %v %+v", payload, okA, a, errA, aj)
	}
	var r, rj responsesEvent
	okR := decodeResponsesEvent(payload, &r)
	r.DeltaHalves = lone{}
	errR := json.Unmarshal([]byte(payload), &rj)
	validR := errR == nil || errors.As(errR, new(*json.UnmarshalTypeError))
	if okR != validR || okR && !reflect.DeepEqual(r, rj) && errR == nil {
		t.Fatalf("responses %q:\nscan %v %+v\njson %v %+v", payload, okR, r, errR, rj)
	}
}

var eventScanSeeds = []string{
	aStart, aStop, aDeltaTool, aArgs(0, `{"a":"\u00e9\n"}`), aBlock(2, `{"type":"tool_use","id":"t","name":"f","input":{"x":[1,{"y":null}]}}`),
	`{"type":"message_delta","delta":{"stop_reason":null},"usage":null}`,
	`{"TYPE":"content_block_delta","Index":3,"DELTA":{"Type":"text_delta","Text":"caf\u00e9 \ud83d\ude00"}}`,
	`{"type":"content_block_delta","delta":{"type":"text_delta","text":"\ude00 a \ud83d"}}`,
	`{"type":"content_block_start","content_block":{"type":"thinking","thinking":"\ud83e"}}`,
	`{"type":"response.output_text.delta","delta":"\udd14x\ud83e"}`,
	`{"type":"x","usage":{"input_tokens":1.5,"output_tokens":"2"},"index":"7"}`,
	`{"type":"a","type":"b","delta":{"text":"1"},"delta":{"type":"t"}}`,
	rCompleted("completed"), rCall(1, "fc", "c", "f"), rArgs(0, "fc", `{"q":"\"x\""}`), rText("m", "hi\x7f"),
	`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":3}}}`,
	`{"type":"response.failed","response":{"error":{"code":"x","message":"m"},"incomplete_details":null}}`,
	`{"item":null,"response":null,"delta":null}`, `[1,2]`, `{"a":}`, `{"type":"x"} trailing`, ` {"type":"x"} `, "\"s\"",
	"{\"type\":\"bad \xff utf8\"}",
}

func TestEventScanMatchesEncodingJSON(t *testing.T) {
	for _, p := range eventScanSeeds {
		checkEventScan(t, p)
	}
	// Every event of the recordings, when present.
	for _, dir := range []string{"anthropic", "openai-responses"} {
		paths, _ := filepath.Glob(filepath.Join("/work/shared/corpus", dir, "*.sse"))
		for _, p := range paths {
			data, _ := os.ReadFile(p)
			for _, line := range strings.Split(string(data), "\n") {
				if d, ok := strings.CutPrefix(line, "data: "); ok {
					checkEventScan(t, d)
				}
			}
		}
	}
}

func FuzzEventScan(f *testing.F) {
	for _, p := range eventScanSeeds {
		f.Add(p)
	}
	f.Fuzz(checkEventScan)
}
