package perform

import (
	"sync"

	"github.com/phasechat/phasechat/model/chat"
)

// toolWatch carries a watched tool's output to the engine: the latest lines replace any not
// yet taken (a slow reader sees fewer, never more), and the tool's result ends it.
type toolWatch struct {
	req    int
	callID string
	wake   chan struct{} // holds a token while something is waiting to be taken

	mu    sync.Mutex
	out   string
	fresh bool
	done  any // the ToolDoneMsg once the tool ended
}

func newToolWatch(req int, callID string) *toolWatch {
	return &toolWatch{req: req, callID: callID, wake: make(chan struct{}, 1)}
}

// set takes the tool's latest lines; it never blocks.
func (w *toolWatch) set(lines string) {
	w.mu.Lock()
	w.out, w.fresh = lines, true
	w.mu.Unlock()
	w.poke()
}

// finish takes the tool's result message; it never blocks.
func (w *toolWatch) finish(msg any) {
	w.mu.Lock()
	w.done = msg
	w.mu.Unlock()
	w.poke()
}

func (w *toolWatch) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// next blocks until the tool has new lines (a chat.ToolOutputMsg) or has ended (its
// chat.ToolDoneMsg, which wins over lines not yet taken).
func (w *toolWatch) next() any {
	for {
		w.mu.Lock()
		switch {
		case w.done != nil:
			w.mu.Unlock()
			return w.done
		case w.fresh:
			w.fresh = false
			out := w.out
			w.mu.Unlock()
			return chat.ToolOutputMsg{Req: w.req, CallID: w.callID, Output: out, Next: w.next}
		}
		w.mu.Unlock()
		<-w.wake
	}
}
