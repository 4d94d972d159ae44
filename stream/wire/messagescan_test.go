package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

var messageCases = []string{
	`{"role":"user","content":"what time is it"}`,
	`{"role":"assistant","content":null,"reasoning_content":"hm","tool_calls":[{"id":"call_1","type":"function","function":{"name":"now","arguments":"{}"},"extra_content":{"google":{"thought_signature":"s"}}}]}`,
	`{"role":"tool","content":"12:00","tool_call_id":"call_1","name":"now"}`,
	`{"role":"assistant","content":[{"type":"thinking","thinking":"t"},{"type":"text","text":"a"}],"reasoning":"r"}`,
	`{"role":"assistant","tool_calls":[{"index":1,"function":{"name":"b","arguments":{"x":1}}},{"index":0,"id":"z","function":{"name":"a"}},null]}`,
	`{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}`,
	`{"ROLE":"user","Content":"folded","role":null}`,
	`{"role":5}`,
	`{"role":"user","name":[]}`,
	`{"role":"assistant","tool_calls":5}`,
	`{"role":"assistant","tool_calls":[5]}`,
	`{"role":"assistant","tool_calls":[{"function":5}]}`,
	`{"role":"assistant","function_call":"auto"}`,
	`{"role":"assistant","native_reasoning":{"wire":"anthropic","items":[{"type":"thinking"}]}}`,
	`{"role":"assistant","native_reasoning":null,"content":"x"}`,
	`{"role":"user","content":"a"} x`,
	`{"role":"user",}`,
	`null`,
	`"text"`,
	`[]`,
}

// checkMessage holds DecodeMessage to encoding/json's reading of the same message wherever it
// reads one itself.
func checkMessage(t *testing.T, data string) {
	t.Helper()
	got, ok := DecodeMessage([]byte(data))
	if !ok {
		return
	}
	var want Message
	if err := unmarshalMessage([]byte(data), &want); err != nil {
		t.Fatalf("%q: DecodeMessage read it, encoding/json says %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nDecodeMessage %+v\nencoding/json %+v", data, got, want)
	}
}

func TestDecodeMessageAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range messageCases {
		checkMessage(t, c)
	}
	for _, c := range messageCases[:6] {
		if _, ok := DecodeMessage([]byte(c)); !ok {
			t.Errorf("%q was left to encoding/json", c)
		}
	}
	for _, c := range []string{`{"role":5}`, `{"role":"assistant","tool_calls":[5]}`, `{"role":"user",}`, `null`} {
		if _, ok := DecodeMessage([]byte(c)); ok {
			t.Errorf("%q was read, not left to encoding/json", c)
		}
	}
}

func TestMessageRoundTrips(t *testing.T) {
	in := Message{Role: "assistant", Parts: ReplyParts("r", "caf\u00e9 \"q\" 😀", []ToolCall{{Index: 0, ID: "c", Name: "f", Arguments: `{"a":1}`, ExtraContent: json.RawMessage(`{"k":1}`)}}), ReasoningField: FieldReasoning}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Message
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(in, out) {
		t.Fatalf("%s read back as %+v (%v)", b, out, err)
	}
}

// FuzzDecodeMessage checks the single-pass message reader against encoding/json.
func FuzzDecodeMessage(f *testing.F) {
	for _, c := range messageCases {
		f.Add(c)
	}
	for _, c := range chunkCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, data string) { checkMessage(t, data) })
}
