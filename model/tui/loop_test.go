package tui

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.uber.org/goleak"

	"github.com/phasechat/phasechat/fixtures"
	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/perform"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
)

// loop runs a model the way a Bubble Tea program does: every command on a goroutine of its
// own (a batch's commands concurrently, a sequence's in order), their messages folded into the
// model one at a time on the goroutine that calls the loop's methods.
type loop struct {
	t    testing.TB
	m    *Model
	msgs chan tea.Msg
	busy atomic.Int64  // commands running; a command's message is queued before it stops counting
	wake chan struct{} // a command stopped
	draw func()        // when set, called after every message, as Bubble Tea draws a View
	// folded, when set, is told of every message folded and how long its Update took.
	folded func(msg tea.Msg, took time.Duration)
}

// live configures a loop's server and model.
type live struct {
	pace  float64         // the fixture server's pace (0: no pauses)
	stall time.Duration   // the client's stall timeout; 0 keeps the default
	tools *tools.Registry // nil: the chat offers no tools
	wire  wire.Wire       // the client's wire format (zero: Chat Completions)
}

// newLiveLoop starts the fixture server over real HTTP on 127.0.0.1 (port 0) and returns a
// loop whose model talks to scenario on it. The server stops when the test ends.
func newLiveLoop(t testing.TB, scenario string, cfg live) *loop {
	t.Helper()
	handler, err := fixtures.NewHandler(fixtures.Options{Pace: cfg.pace})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(handler)
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	client := stream.NewClient(srv.URL+"/v1", "")
	client.HTTP = &http.Client{Transport: transport}
	client.Wire = cfg.wire
	if cfg.stall > 0 {
		client.StallTimeout = cfg.stall
	}
	var toolbox chat.Toolbox
	if cfg.tools != nil {
		toolbox = perform.Toolbox(cfg.tools)
	}
	m := New(Options{
		Chat:      chat.New(chat.Config{Model: scenario, Tools: toolbox}, nil),
		Performer: &perform.Performer{Client: client, Tools: cfg.tools, Frame: FrameInterval}, // paced as the program is
		Styles:    view.PlainStyles(),
		Footer:    view.Footer{Endpoint: srv.URL, Model: scenario},
		Tick:      func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }, // no timer fires
	})
	l := &loop{t: t, m: m, msgs: make(chan tea.Msg, 1024), wake: make(chan struct{}, 1)}
	l.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	return l
}

// send folds msg into the model and starts the commands it returned.
func (l *loop) send(msg tea.Msg) {
	start := time.Now()
	next, cmd := l.m.Update(msg)
	if l.folded != nil {
		l.folded(msg, time.Since(start))
	}
	l.m = next.(*Model)
	if l.draw != nil {
		l.draw()
	}
	l.start(cmd)
}

func (l *loop) start(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	l.busy.Add(1)
	go func() {
		l.perform(cmd)
		l.busy.Add(-1)
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}()
}

// perform runs cmd on this goroutine; a batch's commands go to goroutines of their own.
func (l *loop) perform(cmd tea.Cmd) {
	msg := cmd()
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			l.start(c)
		}
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSlice) {
			for _, c := range v.Convert(cmdSlice).Interface().([]tea.Cmd) {
				if c != nil {
					l.perform(c)
				}
			}
			return
		}
		l.msgs <- msg
	}
}

// submit types prompt and presses Enter.
func (l *loop) submit(prompt string) {
	for _, r := range prompt {
		l.send(keyRune(r))
	}
	l.send(keyEnter)
}

// until folds messages until cond holds, failing when the test's patience runs out.
func (l *loop) until(what string, cond func(*Model) bool) {
	l.t.Helper()
	began := time.Now()
	giveUp := testwait.After(l.t)
	for !cond(l.m) {
		select {
		case msg := <-l.msgs:
			l.send(msg)
		case <-giveUp:
			l.t.Fatalf("waited %v for %s; phase %s", time.Since(began).Round(time.Millisecond), what, l.m.Chat().State.Phase)
		}
	}
}

// settle folds messages until no command is running and none is waiting.
func (l *loop) settle() {
	l.t.Helper()
	began := time.Now()
	giveUp := testwait.After(l.t)
	for {
		select {
		case msg := <-l.msgs:
			l.send(msg)
			continue
		default:
		}
		if l.busy.Load() == 0 && len(l.msgs) == 0 {
			return
		}
		select {
		case msg := <-l.msgs:
			l.send(msg)
		case <-l.wake:
		case <-giveUp:
			l.t.Fatalf("%d commands still running after %v", l.busy.Load(), time.Since(began).Round(time.Millisecond))
		}
	}
}

// forget empties the idle engine's conversation, so every request of a long run is the same.
func (l *loop) forget() {
	c := l.m.Chat()
	if c.State.Phase.Streaming() {
		l.t.Fatal("forget while streaming")
	}
	c.Restart(nil)
}

// streamingText reports whether the reply being streamed has text yet.
func streamingText(m *Model) bool {
	es := m.Chat().Entries()
	return len(es) > 0 && es[len(es)-1].Streaming() && es[len(es)-1].Text() != ""
}

// abortOnce starts a slow-drip request in a fresh conversation, waits for its first token and
// presses Esc; it returns once the model has handled everything the stopped request sent.
func (l *loop) abortOnce() {
	l.t.Helper()
	l.forget()
	l.submit("drip")
	l.until("the first token", streamingText)
	l.send(keyEsc)
	if p := l.m.Chat().State.Phase; p.Streaming() {
		l.t.Fatalf("phase %s after Esc", p)
	}
	l.settle()
}

// TestAbortedStreamsLeaveNoGoroutine is P4's leak half (docs/architecture.md, Performance): 100 live streams over real
// HTTP, each stopped with Esc mid-stream, leave no goroutine behind, ours or net/http's.
func TestAbortedStreamsLeaveNoGoroutine(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { testwait.NoLeaks(t, ignore) }) // last: after the server has stopped
	l := newLiveLoop(t, "slow-drip", live{pace: 0.02})
	for range 100 {
		l.abortOnce()
	}
	if st := l.m.Chat().State; !st.Stopped {
		t.Fatalf("the last stream did not end stopped: %+v", st)
	}
}
