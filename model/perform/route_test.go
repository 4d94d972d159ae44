package perform

import (
	"context"
	"errors"
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
)

// A provider whose key cannot be read fails the request with the reason, and a retry as it
// stands cannot help: the user has to fix the key's source first.
func TestRouteFailureIsNotWorthARetry(t *testing.T) {
	p := &Performer{Route: func(context.Context, string) (*stream.Client, error) {
		return nil, errors.New("config.toml: provider.work.api_key_cmd: the key command \"pass\" failed (exit status 1)")
	}}
	src := p.open(chat.OpenStream{Req: 1, Ctx: context.Background(), Provider: "work"})
	for {
		if _, more := src.Next(); !more {
			break
		}
	}
	res := src.Result()
	if res.Outcome != wire.OutcomeError || res.Err == nil {
		t.Fatalf("result %+v, want an error", res)
	}
	if got := res.Err.Retry(); got != wire.RetryUseless {
		t.Fatalf("Retry() = %d, want RetryUseless", got)
	}
}
