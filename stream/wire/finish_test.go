package wire

import (
	"testing"
)

// TestACutOffIsSaidInTheFormatsOwnWords: the reason a reply was cut off names the field and
// value the server sent, not Chat Completions' finish_reason on every wire.
func TestACutOffIsSaidInTheFormatsOwnWords(t *testing.T) {
	const limit = "The reply was cut off: the model reached its output limit "
	tests := []struct {
		wire Wire
		body string
		want string
	}{
		{WireChat, sseBody("", `{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"length"}]}`, "", "[DONE]"),
			limit + "(finish_reason length)."},
		{WireResponses, sseBody("", rText("m", "x"),
			"", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`),
			limit + "(incomplete_details.reason max_output_tokens)."},
		{WireAnthropic, sseBody("", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`, "", aStop),
			limit + "(stop_reason max_tokens)."},
	}
	for _, tt := range tests {
		_, res := runWire(t, tt.wire, tt.body)
		if got := res.CutOff(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.wire, got, tt.want)
		}
	}
}
