package wire

import (
	"math"
	"reflect"
	"testing"
)

func TestSurrogateHalvesAcrossDeltasAreJoined(t *testing.T) {
	tests := []struct {
		name     string
		payloads []string
		content  string
		reason   string
		deltas   []string // the content deltas as emitted, in order
	}{
		{
			name:     "an emoji cut between its halves",
			payloads: []string{delta(`{"content":"a \ud83d"}`), delta(`{"content":"\ude00 b"}`), finishChunk("stop")},
			content:  "a 😀 b", deltas: []string{"a ", "😀 b"},
		},
		{
			name:     "each half a delta of its own",
			payloads: []string{delta(`{"content":"\ud83d"}`), delta(`{"content":"\ude00"}`), finishChunk("stop")},
			content:  "😀", deltas: []string{"", "😀"},
		},
		{
			name:     "a high half the next delta does not complete",
			payloads: []string{delta(`{"content":"x\ud83d"}`), delta(`{"content":"y"}`), finishChunk("stop")},
			content:  "x\uFFFDy", deltas: []string{"x", "\uFFFDy"},
		},
		{
			name:     "a high half at the end of the stream",
			payloads: []string{delta(`{"content":"x\ud83d"}`), finishChunk("stop")},
			content:  "x\uFFFD", deltas: []string{"x", "\uFFFD"},
		},
		{
			name:     "a lone low half",
			payloads: []string{delta(`{"content":"\ude00x"}`), finishChunk("stop")},
			content:  "\uFFFDx", deltas: []string{"\uFFFDx"},
		},
		{
			name:     "an escaped backslash is not a half",
			payloads: []string{delta(`{"content":"\\ud83d"}`), delta(`{"content":"\ude00"}`), finishChunk("stop")},
			content:  `\ud83d` + "\uFFFD", deltas: []string{`\ud83d`, "\uFFFD"},
		},
		{
			name:     "reasoning is joined apart from content",
			payloads: []string{delta(`{"reasoning_content":"\ud83e"}`), delta(`{"content":"c"}`), delta(`{"reasoning_content":"\udd14"}`), finishChunk("stop")},
			content:  "c", reason: "🤔", deltas: []string{"c"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ups, end, res := run(nil, tt.payloads...)
			if res.Message.Text() != tt.content || res.Message.Reasoning() != tt.reason {
				t.Fatalf("content %q reasoning %q, want %q and %q", res.Message.Text(), res.Message.Reasoning(), tt.content, tt.reason)
			}
			var deltas []string
			for _, u := range append(ups, end) {
				for _, ev := range u.Events {
					if ev.Kind.String() == "text" {
						deltas = append(deltas, ev.Delta)
					}
				}
			}
			if !reflect.DeepEqual(deltas, tt.deltas) {
				t.Fatalf("content deltas %q, want %q", deltas, tt.deltas)
			}
		})
	}
}

func TestLegacyFunctionCallIsOneToolCall(t *testing.T) {
	ups, end, res := run(nil,
		delta(`{"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":""}}`),
		delta(`{"function_call":{"arguments":"{\"city\":"}}`),
		delta(`{"function_call":{"arguments":"\"Oslo\"}"}}`),
		`{"choices":[{"index":0,"delta":{},"finish_reason":"function_call"}]}`)
	want := []ToolCall{{Index: 0, ID: "call_0", Name: "get_weather", Arguments: `{"city":"Oslo"}`}}
	if !reflect.DeepEqual(res.Message.Calls(), want) || res.FinishReason != "function_call" {
		t.Fatalf("calls %+v finish %q, want %+v", res.Message.Calls(), res.FinishReason, want)
	}
	log := callLog(append(ups, end)...)
	// No id: the call starts when it becomes ready, as an id-less tool call does.
	wantLog := []string{"4:start:call_0:get_weather", `4:delta:call_0:{"city":"Oslo"}`, "4:ready:call_0"}
	if !reflect.DeepEqual(log, wantLog) {
		t.Fatalf("call events %q, want %q", log, wantLog)
	}
	buffered, err := DecodeAnswer([]byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":null,` +
		`"function_call":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},"finish_reason":"function_call"}]}`))
	if err != nil || !reflect.DeepEqual(buffered.Message.Calls(), want) {
		t.Fatalf("buffered: calls %+v, err %v", buffered.Message.Calls(), err)
	}
}

func TestFunctionCallNullIsNoCall(t *testing.T) {
	_, _, res := run(nil, delta(`{"content":"hi","function_call":null,"tool_calls":null}`), finishChunk("stop"))
	if len(res.Message.Calls()) != 0 || res.Message.Text() != "hi" {
		t.Fatalf("%+v", res.Message)
	}
}

func TestMaxIndexThenUnindexedCallKeepsOrder(t *testing.T) {
	_, _, res := run(nil,
		delta(`{"tool_calls":[{"index":9223372036854775807,"id":"a","function":{"name":"f","arguments":"{}"}}]}`),
		tool(-1, "b", "g", `"{}"`),
		finishChunk("tool_calls"))
	var ids []string
	for _, tc := range res.Message.Calls() {
		ids = append(ids, tc.ID)
	}
	if !reflect.DeepEqual(ids, []string{"a", "b"}) || res.Message.Calls()[0].Index != math.MaxInt {
		t.Fatalf("calls %+v, want a then b", res.Message.Calls())
	}
}
