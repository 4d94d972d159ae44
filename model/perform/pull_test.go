package perform

import (
	"testing"
	"time"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// scripted serves updates numbered 1..len(ups) then ends; the first buffered of them are
// already there (Ready), the rest would wait for the server. It counts the Next calls.
type scripted struct {
	ups      []wire.Update
	buffered int
	nexts    int
	clock    time.Time     // the batching clock the test's Performer reads
	perNext  time.Duration // how far each Next moves the clock
}

func (s *scripted) Next() (wire.Update, bool) {
	if s.nexts == len(s.ups) {
		return wire.Update{}, false
	}
	s.nexts++
	s.clock = s.clock.Add(s.perNext)
	return s.ups[s.nexts-1], true
}

func (s *scripted) Ready() bool {
	return s.nexts < s.buffered || s.nexts == len(s.ups) && s.buffered >= len(s.ups)
}
func (s *scripted) Result() wire.Result { return wire.Result{Outcome: wire.OutcomeComplete} }
func (s *scripted) Close()              {}

func texts(n int) []wire.Update {
	ups := make([]wire.Update, n)
	for i := range ups {
		ups[i] = wire.Update{N: i + 1, Kind: wire.KindText, Events: []phase.Event{{Kind: phase.KindText, Delta: "x"}}}
	}
	return ups
}

func numbers(m chat.StreamMsg) []int {
	out := []int{m.Update.N}
	for _, u := range m.Rest {
		out = append(out, u.N)
	}
	return out
}

func TestPullTakesWhatIsBuffered(t *testing.T) {
	readying := texts(6)
	readying[2].Calls = []phase.CallEvent{{Type: phase.CallReady, ID: "c"}}
	cases := []struct {
		name     string
		ups      []wire.Update
		buffered int
		maxBatch int
		want     []int // the updates of the first pull
		more     bool
		perNext  time.Duration // the time each update takes to take
	}{
		{"nothing buffered behind the first", texts(5), 1, 0, []int{1}, true, 0},
		{"three buffered", texts(5), 3, 0, []int{1, 2, 3}, true, 0},
		{"all buffered, the end too", texts(5), 5, 0, []int{1, 2, 3, 4, 5}, false, 0},
		{"a readied call ends the batch", readying, 6, 0, []int{1, 2, 3}, true, 0},
		{"one per pull when asked", texts(5), 5, 1, []int{1}, true, 0},
		{"at most MaxBatch", texts(5), 5, 2, []int{1, 2}, true, 0},
		{"at most 256 by default", texts(300), 300, 0, nil, true, 0},
		{"no more once the batch time has passed", texts(10), 10, 0, []int{1, 2, 3, 4}, true, 3 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := &scripted{ups: c.ups, buffered: c.buffered, perNext: c.perNext}
			p := &Performer{MaxBatch: c.maxBatch, now: func() time.Time { return src.clock }}
			msg := p.Do(chat.PullNext{Req: 7, Src: src}).(chat.StreamMsg)
			got := numbers(msg)
			want := c.want
			if want == nil {
				for i := range defaultBatch {
					want = append(want, i+1)
				}
			}
			if len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
				t.Fatalf("pulled %v; want %v", got, want)
			}
			if msg.More != c.more || msg.Req != 7 {
				t.Fatalf("More %v, Req %d; want More %v, Req 7", msg.More, msg.Req, c.more)
			}
			if !c.more && msg.Result.Outcome != wire.OutcomeComplete {
				t.Fatalf("an exhausted pull without the result: %+v", msg.Result)
			}
		})
	}
}

// A buffered (stream: false) answer replays in one pull, its end included.
func TestReplayPullsAtOnce(t *testing.T) {
	res := wire.Result{Outcome: wire.OutcomeComplete, Message: wire.Message{Role: "assistant", Parts: wire.TextParts("hello")}}
	msg := (&Performer{}).Do(chat.PullNext{Req: 1, Src: newReplay(res)}).(chat.StreamMsg)
	if msg.More || msg.Result.Message.Text() != "hello" || len(msg.Rest) == 0 {
		t.Fatalf("replayed in %d updates, More %v, result %+v", 1+len(msg.Rest), msg.More, msg.Result)
	}
}
