package linemode

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/heldframes"
)

// heldFixtures is the fixture server of fixtureURL whose answers stop after their first hold
// data frames and wait there until the test lets that answer go on (let) or the client leaves.
// A test that presses Esc once a reply's text is on screen then knows the reply has begun and
// cannot have ended, however slowly the machine runs.
type heldFixtures struct {
	url  string
	hold int32

	answers atomic.Int32 // answers begun; the first is answer 1
	frames  atomic.Int32 // data frames written, over every answer, [DONE] included

	mu    sync.Mutex
	gates map[int32]chan struct{}
}

func newHeldFixtures(t *testing.T, hold int32) *heldFixtures {
	t.Helper()
	h, err := fixtures.NewHandler(fixtures.Options{Pace: 0.1, Dir: approvalDir, BeforeFrame: heldframes.BeforeFrame})
	if err != nil {
		t.Fatal(err)
	}
	f := &heldFixtures{hold: hold, gates: map[int32]chan struct{}{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gate := f.gate(f.answers.Add(1))
		h.ServeHTTP(w, heldframes.Answer(r, func(fr heldframes.Frame) {
			if fr.N == f.hold+1 { // the frame after the first hold waits
				select {
				case <-gate:
				case <-r.Context().Done():
					return // the client left: stop holding (writing the frame fails)
				}
			}
			f.frames.Add(1)
		}))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(f.letAll) // before Close, which waits for every answer to end
	f.url = srv.URL + "/v1"
	return f
}

// gate is answer n's gate, closed when the test lets it go on.
func (f *heldFixtures) gate(n int32) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.gates[n]
	if !ok {
		g = make(chan struct{})
		f.gates[n] = g
	}
	return g
}

// let lets answer n (counted from 1) go on past its held frames.
func (f *heldFixtures) let(n int32) { close(f.gate(n)) }

// letAll lets every answer held so far go on.
func (f *heldFixtures) letAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, g := range f.gates {
		select {
		case <-g:
		default:
			close(g)
		}
	}
}

// withoutStallWatch is o with the stall watchdog off: a held answer is silent for as long as
// the test takes to go on, which a loaded machine can make longer than any timeout.
func withoutStallWatch(o Options) Options {
	o.Performer.Client.StallTimeout = 0
	return o
}
