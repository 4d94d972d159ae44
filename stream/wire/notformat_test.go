package wire

import (
	"errors"
	"testing"
)

// TestAnAnswerInAnotherFormatIsSaidSo: a body that ends without its format's end event is
// truncated only when events of that format arrived; events of another format, or none, are
// named for what they are.
func TestAnAnswerInAnotherFormatIsSaidSo(t *testing.T) {
	chatBody := sseBody("", `{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}`, "", "[DONE]")
	tests := []struct {
		name string
		wire Wire
		body string
		want string
	}{
		{"chat completions on the anthropic wire", WireAnthropic, chatBody,
			"The answer is not Anthropic Messages events: it looks like Chat Completions (choose that wire format: --wire chat)."},
		{"anthropic on the responses wire", WireResponses, sseBody("", `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, "", aStop),
			"The answer is not OpenAI Responses events: it looks like Anthropic Messages (choose that wire format: --wire anthropic)."},
		{"responses on the chat wire", WireChat, sseBody("", rText("m", "x"), "", rCompleted("completed")),
			"The answer is not Chat Completions events: it looks like OpenAI Responses (choose that wire format: --wire responses)."},
		{"no events at all", WireChat, "[model]\nname = \"x\"\n",
			"The answer has no server-sent events (no data: lines), so it is not a Chat Completions stream."},
		{"events of no known format", WireAnthropic, sseBody("", `{"hello":1}`),
			"The answer is not Anthropic Messages events: none of its events is one of that format."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, res := runWire(t, tt.wire, tt.body)
			if res.Outcome != OutcomeError || res.Err == nil || res.Err.Message != tt.want || !errors.Is(res.Err, ErrUnsupportedFormat) {
				t.Fatalf("outcome %q, error %v; want %q", res.Outcome, res.Err, tt.want)
			}
		})
	}
	// Its own events, cut short, are still a truncated stream.
	if _, res := runWire(t, WireAnthropic, sseBody("", `{"type":"message_start","message":{}}`)); res.Outcome != OutcomeTruncated {
		t.Fatalf("a cut Anthropic stream: outcome %q, error %v", res.Outcome, res.Err)
	}
}
