package perform

import (
	"testing"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/stream/wire"
)

// endedSource is a source with nothing more to read; it counts its Close calls.
type endedSource struct{ closed chan struct{} }

func (s endedSource) Next() (wire.Update, bool) { return wire.Update{}, false }
func (s endedSource) Result() wire.Result       { return wire.Result{Outcome: wire.OutcomeStopped} }
func (s endedSource) Close()                    { s.closed <- struct{}{} }

// TestWaitPerformsEffectsThatAnswersStart: answers handled inside Wait may start more
// effects (here each stale pull's answer asks for its source to be closed); Wait performs
// those too before it returns, and never reuses its bookkeeping while waiting (a WaitGroup
// that Wait waits on while Handle adds to it panics or races under -race).
func TestWaitPerformsEffectsThatAnswersStart(t *testing.T) {
	const pulls = 200
	for range 20 {
		closed := make(chan struct{}, pulls)
		d := NewDriver(chat.New(chat.Config{}, nil), &Performer{}, nil)
		effects := make([]chat.Effect, pulls)
		for i := range effects {
			// Request 1 is not current (nothing was submitted): its answers are stale.
			effects[i] = chat.PullNext{Req: 1, Src: endedSource{closed: closed}}
		}
		d.Apply(effects)
		d.Wait()
		if n := len(closed); n != pulls {
			t.Fatalf("Wait returned with %d of %d sources closed", n, pulls)
		}
		if n := d.inFlight.Load(); n != 0 {
			t.Fatalf("%d effects still in flight after Wait", n)
		}
	}
}
