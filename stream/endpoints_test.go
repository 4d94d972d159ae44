package stream

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// Each format's shortest answer "hi".
const (
	anthropicHi = "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":5,\"output_tokens\":1}}}\n\n" +
		"data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"hi\"}}\n\n" +
		"data: {\"type\":\"message_stop\"}\n\n"
	responsesHi = "data: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"hi\"}\n\n" +
		"data: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"input_tokens\":7,\"output_tokens\":3,\"total_tokens\":10}}}\n\n"
)

// TestWireEndpointsAndHeaders checks where each format's request goes and how it is signed.
func TestWireEndpointsAndHeaders(t *testing.T) {
	type seen struct{ path, auth, key, version string }
	tests := []struct {
		wire wire.Wire
		want seen
		body string
	}{
		{wire.WireChat, seen{"/v1/chat/completions", "Bearer sk-test-key-1234", "", ""}, "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\n"},
		{wire.WireAnthropic, seen{"/v1/messages", "", "sk-test-key-1234", wire.AnthropicVersion}, anthropicHi},
		{wire.WireResponses, seen{"/v1/responses", "Bearer sk-test-key-1234", "", ""}, responsesHi},
	}
	for _, tt := range tests {
		t.Run(string(tt.wire), func(t *testing.T) {
			var got seen
			c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				got = seen{r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("x-api-key"), r.Header.Get("anthropic-version")}
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, tt.body)
			})
			c.Wire = tt.wire
			s := c.Stream(context.Background(), wire.Request{Model: "m", Messages: []wire.Message{{Role: "user", Parts: wire.TextParts("hi")}}})
			drain(s)
			res := s.Result()
			if got != tt.want || res.Outcome != wire.OutcomeComplete || res.Message.Text() != "hi" {
				t.Errorf("seen %+v, want %+v; result %+v", got, tt.want, res)
			}
		})
	}
}
