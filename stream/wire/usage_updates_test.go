package wire

import "testing"

// usageOn is, for each update that carries usage, its index and the usage.
func usageOn(ups []Update) map[int]Usage {
	out := map[int]Usage{}
	for i, u := range ups {
		if u.Usage != nil {
			out[i] = *u.Usage
		}
	}
	return out
}

// usageBodies is a stream of each format that reports usage.
var usageBodies = []struct {
	as   Wire
	body string
}{
	{WireChat, sseBody("", `{"choices":[{"index":0,"delta":{"content":"x"}}]}`, "",
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`, "",
		"[DONE]")},
	{WireAnthropic, sseBody("", aStart, "", aBlock(0, `{"type":"text","text":""}`),
		"", aDelta(0, `{"type":"text_delta","text":"hi"}`), "", aBlockStop(0), "", aDeltaTool, "", aStop)},
	{WireResponses, sseBody("", rText("m", "hi"), "", rCompleted("completed"))},
}

// The usage on an update is the update's own: changing it does not change the result's.
func TestUpdatesOwnTheirUsage(t *testing.T) {
	for _, tc := range usageBodies {
		_, want := decodeBody(tc.as, tc.body)
		dec := NewFrameDecoder(tc.as)
		for _, f := range sseFrames(tc.body) {
			if u := dec.Frame(f); u.Usage != nil {
				*u.Usage = Usage{PromptTokens: -1}
			}
		}
		if got := dec.Result().Usage; got == nil || want.Usage == nil || *got != *want.Usage {
			t.Errorf("%s: after its updates' usage changed the result's is %+v, want %+v", tc.as, got, want.Usage)
		}
	}
}

// Every format puts the usage on the update of the frame that reported it, as it arrives
// (Anthropic's prompt tokens at message_start, long before the end), and the last one it put
// is the result's.
func TestUsageIsOnTheUpdateOfItsFrame(t *testing.T) {
	for _, tc := range []struct {
		name string
		as   Wire
		body string
		want map[int]Usage
	}{
		{"chat", WireChat, sseBody("",
			`{"choices":[{"index":0,"delta":{"content":"x"}}]}`, "",
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`, "",
			"[DONE]"),
			map[int]Usage{1: {PromptTokens: 5, CompletionTokens: 2, TotalTokens: 7}}},
		{"anthropic", WireAnthropic, sseBody("", aStart, "", aBlock(0, `{"type":"text","text":""}`),
			"", aDelta(0, `{"type":"text_delta","text":"hi"}`), "", aBlockStop(0), "", aDeltaTool, "", aStop),
			map[int]Usage{0: {PromptTokens: 15, CompletionTokens: 1, TotalTokens: 16, CachedTokens: 5},
				4: {PromptTokens: 15, CompletionTokens: 20, TotalTokens: 35, CachedTokens: 5}}},
		{"responses", WireResponses, sseBody("", rText("m", "hi"), "", rCompleted("completed")),
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ups, res := decodeBody(tc.as, tc.body)
			got := usageOn(ups)
			if tc.want != nil && len(got) != len(tc.want) {
				t.Fatalf("usage on updates %v, want %v", got, tc.want)
			}
			for i, u := range tc.want {
				if got[i] != u {
					t.Fatalf("usage on updates %v, want %v", got, tc.want)
				}
			}
			last := -1
			for i := range got {
				last = max(last, i)
			}
			if res.Usage == nil || last < 0 || got[last] != *res.Usage {
				t.Fatalf("usage on updates %v; the result's %+v", got, res.Usage)
			}
		})
	}
}
