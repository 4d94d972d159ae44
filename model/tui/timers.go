package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
)

// The model's timers are commands (Options.Tick, tea.Tick by default) and the messages they
// deliver; none runs while the chat is idle. Two kinds exist:
//
//   - the silence tick, once a second while a request is in flight, counts the seconds since
//     the last stream message or tool result, for the status line's "waiting 12s", and tells
//     the engine the time, for the running time on a running tool's card;
//   - the retry tick, once a second while an automatic retry is pending, counts down to it.
//
// Each tick carries the generation it was scheduled in; a tick of an older generation is
// dropped, so at most one of each kind is ever pending.

// waitingAfter is how long a stream may stay silent before the status line says so.
const waitingAfter = 3

// silenceTick is one second of a request in flight, at the time it fired.
type silenceTick struct {
	gen int
	at  time.Time
}

// retryTick is one second of an automatic retry's countdown.
type retryTick struct{ gen int }

// Ticker schedules fn's message after d; tea.Tick is one.
type Ticker func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd

// timers is the model's timer state.
type timers struct {
	tick Ticker

	silenceGen int
	silenceOn  bool // a silence tick is pending
	silent     int  // whole seconds since the last stream message or tool result

	retryGen   int
	retryLeft  int  // seconds until the automatic retry; 0: none pending
	retryQuick bool // the pending retry is the quick one after a failure before the first byte
}

func (m *Model) schedule(msg tea.Msg) tea.Cmd {
	return m.timers.tick(time.Second, func(time.Time) tea.Msg { return msg })
}

// scheduleSilence is the next silence tick of generation gen.
func (m *Model) scheduleSilence(gen int) tea.Cmd {
	return m.timers.tick(time.Second, func(at time.Time) tea.Msg { return silenceTick{gen: gen, at: at} })
}

// heard resets the silence count: the stream (or a tool) just said something.
func (m *Model) heard() { m.timers.silent = 0 }

// armTimers starts what the phase the engine is now in needs: the silence tick while a
// request is in flight, the countdown when the failure it just entered is retried on its own.
func (m *Model) armTimers() (*Model, tea.Cmd) {
	var cmds []tea.Cmd
	t := &m.timers
	if m.chat.State.Phase.Streaming() {
		if !t.silenceOn {
			t.silenceOn = true
			t.silenceGen++
			cmds = append(cmds, m.scheduleSilence(t.silenceGen))
		}
	} else {
		t.silent = 0
	}
	if wait, ok := m.chat.AutoRetry(); ok && t.retryLeft == 0 {
		t.retryGen++
		t.retryLeft = max(1, int((wait+time.Second-1)/time.Second))
		t.retryQuick = wait <= chat.QuickRetryDelay
		cmds = append(cmds, m.schedule(retryTick{t.retryGen}))
	} else if !ok {
		t.retryLeft = 0
	}
	return m, tea.Batch(cmds...)
}

func (m *Model) onSilence(msg silenceTick) (*Model, tea.Cmd) {
	t := &m.timers
	if msg.gen != t.silenceGen {
		return m, nil
	}
	t.silenceOn = false
	if !m.chat.State.Phase.Streaming() {
		t.silent = 0
		return m, nil
	}
	t.silent++
	t.silenceOn = true
	if m.chat.Running() {
		m.chat.Tick(msg.at)
	}
	return m, m.scheduleSilence(t.silenceGen)
}

func (m *Model) onRetryTick(msg retryTick) (*Model, tea.Cmd) {
	t := &m.timers
	if msg.gen != t.retryGen || t.retryLeft == 0 {
		return m, nil
	}
	t.retryLeft--
	if t.retryLeft > 0 {
		return m, m.schedule(retryTick{t.retryGen})
	}
	m.follow()
	return m.after(m.chat.RetryNow())
}

// waiting is how long the stream has been silent, when the status line should say so.
func (m *Model) waiting() time.Duration {
	if !m.chat.State.Phase.Streaming() || m.chat.Asking() || m.timers.silent < waitingAfter {
		return 0
	}
	return time.Duration(m.timers.silent) * time.Second
}
