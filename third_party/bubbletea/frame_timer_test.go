package tea

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// handFrameTimer is a frameTimer that fires only when the test says so.
type handFrameTimer struct {
	mu     sync.Mutex
	armed  bool
	resets int
	fires  chan time.Time
}

func newHandFrameTimer() *handFrameTimer {
	return &handFrameTimer{fires: make(chan time.Time)}
}

func (h *handFrameTimer) C() <-chan time.Time { return h.fires }

func (h *handFrameTimer) Reset(time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.armed = true
	h.resets++
}

func (h *handFrameTimer) Stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.armed = false
}

func (h *handFrameTimer) state() (armed bool, resets int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.armed, h.resets
}

// fire delivers one expiry of an armed timer; it returns once the renderer
// loop has taken it.
func (h *handFrameTimer) fire(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	if !h.armed {
		h.mu.Unlock()
		t.Fatal("fired a frame timer that is not armed")
	}
	h.armed = false
	h.mu.Unlock()
	h.fires <- time.Time{}
}

// lockedBuffer is an output the test reads while the renderer writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type bumpMsg struct{}

// countingModel shows a counter that bumpMsg raises, and records whether
// the messages a program sends itself at start have arrived.
type countingModel struct {
	mu      sync.Mutex
	count   int
	started map[string]bool
}

func (m *countingModel) Init() Cmd { return nil }

func (m *countingModel) Update(msg Msg) (Model, Cmd) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch msg.(type) {
	case bumpMsg:
		m.count++
	case WindowSizeMsg, ColorProfileMsg, EnvMsg:
		m.started[fmt.Sprintf("%T", msg)] = true
	}
	return m, nil
}

func (m *countingModel) View() View {
	m.mu.Lock()
	defer m.mu.Unlock()
	return NewView(fmt.Sprintf("count %d", m.count))
}

func (m *countingModel) snapshot() (count, started int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count, len(m.started)
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// startHandClocked runs a countingModel whose frames are clocked by hand,
// and waits until its start-up messages are handled and drawn, so that
// nothing is left to draw.
func startHandClocked(t *testing.T) (*Program, *countingModel, *handFrameTimer, *lockedBuffer) {
	t.Helper()
	var in bytes.Buffer
	out := &lockedBuffer{}
	clock := newHandFrameTimer()
	model := &countingModel{started: map[string]bool{}}
	p := NewProgram(model, WithInput(&in), WithOutput(out), WithWindowSize(40, 5))
	p.newFrameTimer = func() frameTimer { return clock }

	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	t.Cleanup(func() {
		p.Quit()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})

	waitUntil(t, "the start-up messages are handled", func() bool {
		_, started := model.snapshot()
		return started == 3
	})
	waitUntil(t, "the first frame is drawn", func() bool {
		if armed, _ := clock.state(); armed {
			clock.fire(t)
		}
		return strings.Contains(out.String(), "count 0")
	})
	// The last firing may still be in flight: wait until the renderer has
	// taken it and nothing re-armed the clock.
	waitUntil(t, "the renderer is idle", func() bool {
		if armed, _ := clock.state(); armed {
			clock.fire(t)
			return false
		}
		return !p.frameArmed.Load()
	})
	return p, model, clock, out
}

func TestUnchangedProgramHasNoFrameTimerRunning(t *testing.T) {
	t.Parallel()
	p, _, clock, _ := startHandClocked(t)

	// With the frame timer disarmed and no frame requested, the renderer
	// loop can only be woken by a new change: an idle program sleeps.
	if armed, _ := clock.state(); armed {
		t.Fatal("an unchanged program keeps its frame timer running")
	}
	if p.frameArmed.Load() {
		t.Fatal("an unchanged program has a frame requested")
	}
}

func TestChangeArmsOneFrameAndBurstsCoalesce(t *testing.T) {
	t.Parallel()
	p, model, clock, out := startHandClocked(t)
	_, resetsBefore := clock.state()
	drawn := out.String()

	const burst = 50
	for range burst {
		p.Send(bumpMsg{})
	}
	waitUntil(t, "the burst is handled", func() bool {
		count, _ := model.snapshot()
		return count == burst
	})
	waitUntil(t, "the burst arms the frame timer", func() bool {
		armed, _ := clock.state()
		return armed
	})
	if _, resets := clock.state(); resets-resetsBefore != 1 {
		t.Fatalf("a burst of %d changes armed the frame timer %d times, want once", burst, resets-resetsBefore)
	}
	if got := out.String(); got != drawn {
		t.Fatalf("output was written before the frame timer fired: %q", strings.TrimPrefix(got, drawn))
	}

	// The renderer writes only the cells that changed, so the burst's frame
	// shows as the new count. The last view may reach the renderer just
	// after a firing; then that firing's change re-arms the timer.
	want := fmt.Sprint(burst)
	waitUntil(t, "the burst's frame is drawn", func() bool {
		if armed, _ := clock.state(); armed {
			clock.fire(t)
		}
		return strings.Contains(strings.TrimPrefix(out.String(), drawn), want)
	})
	waitUntil(t, "the renderer is idle again", func() bool {
		if armed, _ := clock.state(); armed {
			clock.fire(t)
			return false
		}
		return !p.frameArmed.Load()
	})
}
