package stream

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// What a reply keeps to send back but never shows (Anthropic thinking signatures, Responses
// reasoning items) counts toward MaxReply as its text does: a server sending 16 MiB of it is
// stopped past the limit with the error that says so.
func TestKeptNativeReasoningCountsTowardTheReplyLimit(t *testing.T) {
	blob := strings.Repeat("A", 64<<10)
	for _, tc := range []struct {
		wire        wire.Wire
		start, each string
		end         string
	}{
		{wire.WireAnthropic,
			"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n" +
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n",
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"" + blob + "\"}}\n\n",
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"},
		{wire.WireResponses,
			"event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"status\":\"in_progress\"}}\n\n",
			"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"reasoning\",\"id\":\"rs_%d\",\"summary\":[],\"encrypted_content\":\"" + blob + "\"}}\n\n",
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\"}}\n\n"},
	} {
		t.Run(string(tc.wire), func(t *testing.T) {
			c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, tc.start)
				for i := range 256 { // 16 MiB
					each := tc.each
					if strings.Contains(each, "%d") {
						each = fmt.Sprintf(each, i)
					}
					if _, err := fmt.Fprint(w, each); err != nil {
						return
					}
				}
				fmt.Fprint(w, tc.end)
			})
			c.Wire, c.MaxReply = tc.wire, 1<<20
			s := c.Stream(context.Background(), wire.Request{Model: "m"})
			drain(s)
			res := s.Result()
			if res.Outcome != wire.OutcomeError || res.Err == nil || !strings.Contains(res.Err.Message, "passed 1 MiB") {
				t.Fatalf("outcome %s, error %v: the kept reasoning escaped the limit", res.Outcome, res.Err)
			}
		})
	}
}

// A model list longer than its bound is refused with words that say so, not read on nor
// mistaken for a list of another shape.
func TestAnEndlessModelListIsRefusedBySize(t *testing.T) {
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"data":[`)
		entry := []byte(`{"id":"model-with-a-long-name-0123456789"},`)
		for {
			if _, err := w.Write(entry); err != nil {
				return
			}
		}
	})
	_, err := c.ListModels(context.Background())
	if err == nil || !strings.Contains(err.Error(), "the model list is larger than 8 MiB") {
		t.Fatalf("an endless model list: %v", err)
	}
}
