package oneshot

import (
	"sync"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// ends remembers how the last stream ended. Its sources report from the performer's
// goroutines before the update that ended them is delivered, so the run loop, which reads
// after handling that update, always sees it.
type ends struct {
	mu    sync.Mutex
	last  *wire.Result
	usage bool // some stream of the turn reported its token usage
}

func (e *ends) wrap(src chat.Source) chat.Source { return &watched{Source: src, ends: e} }

func (e *ends) get() *wire.Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

func (e *ends) usageReported() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.usage
}

// watched reports its source's result once the stream has ended or failed. A failure mid-
// stream (an error frame) arrives as an update with an error event, after which the engine
// reads no more; the result is taken then.
type watched struct {
	chat.Source
	ends     *ends
	reported bool
}

func (w *watched) Next() (wire.Update, bool) {
	u, more := w.Source.Next()
	if !w.reported && (!more || failed(u)) {
		w.reported = true
		res := w.Source.Result()
		w.ends.mu.Lock()
		w.ends.last = &res
		w.ends.usage = w.ends.usage || res.Usage != nil
		w.ends.mu.Unlock()
	}
	return u, more
}

func failed(u wire.Update) bool {
	if u.Kind == wire.KindError {
		return true
	}
	for _, ev := range u.Events {
		if ev.Kind == phase.KindError {
			return true
		}
	}
	return false
}
