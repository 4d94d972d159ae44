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
//     the engine the time, for the running time on a running tool's card and the turn's live
//     counters (chat.Counters: the status line's "12s · ~340 tokens", which therefore move
//     once a second, never per token); it carries the generation it was scheduled in, and one
//     of an older generation is dropped;
//   - the engine's own timers (chat.Wait: the automatic retry's countdown, the approval
//     question's quiet wait), armed as the engine says and handed back to it (waitMsg).

// waitMsg is a chat.Wait whose time has come.
type waitMsg struct{ wait chat.Wait }

// timeUp hands the engine its Wait back; a retry it starts brings the view to the new reply.
func (m *Model) timeUp(w chat.Wait) (*Model, tea.Cmd) {
	effects, _ := m.chat.TimeUp(w) // keys not taken went to the draft, where they show
	if m.chat.State.Phase.Streaming() && w.For == chat.WaitRetry {
		m.follow()
	}
	return m.after(effects)
}

// waitingAfter is how long a stream may stay silent before the status line says so.
const waitingAfter = 3

// silenceTick is one second of a request in flight, at the time it fired.
type silenceTick struct {
	gen int
	at  time.Time
}

// Ticker schedules fn's message after d; tea.Tick is one.
type Ticker func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd

// timers is the model's timer state.
type timers struct {
	tick Ticker

	silenceGen int
	silenceOn  bool // a silence tick is pending
	silent     int  // whole seconds since the last stream message or tool result
}

// scheduleSilence is the next silence tick of generation gen.
func (m *Model) scheduleSilence(gen int) tea.Cmd {
	return m.timers.tick(time.Second, func(at time.Time) tea.Msg { return silenceTick{gen: gen, at: at} })
}

// heard resets the silence count: the stream (or a tool) just said something.
func (m *Model) heard() { m.timers.silent = 0 }

// armTimers starts the silence tick while a request is in flight.
func (m *Model) armTimers() (*Model, tea.Cmd) {
	t := &m.timers
	if !m.chat.State.Phase.Streaming() {
		t.silent = 0
		return m, nil
	}
	if t.silenceOn {
		return m, nil
	}
	t.silenceOn = true
	t.silenceGen++
	return m, m.scheduleSilence(t.silenceGen)
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
	m.chat.Tick(msg.at)
	return m, m.scheduleSilence(t.silenceGen)
}

// waiting is how long the stream has been silent, when the status line should say so.
func (m *Model) waiting() time.Duration {
	if !m.chat.State.Phase.Streaming() || m.chat.Asking() || m.timers.silent < waitingAfter {
		return 0
	}
	return time.Duration(m.timers.silent) * time.Second
}
