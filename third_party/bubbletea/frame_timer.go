package tea

import "time"

// frameTimer is the renderer's one-shot frame clock: Reset arms it to fire
// once after d, Stop disarms it, C delivers the firing.
type frameTimer interface {
	C() <-chan time.Time
	Reset(d time.Duration)
	Stop()
}

// wallFrameTimer is a frameTimer on a time.Timer.
type wallFrameTimer struct{ timer *time.Timer }

// newStoppedFrameTimer returns a disarmed frameTimer on the wall clock.
func newStoppedFrameTimer() frameTimer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return wallFrameTimer{timer: t}
}

func (w wallFrameTimer) C() <-chan time.Time   { return w.timer.C }
func (w wallFrameTimer) Reset(d time.Duration) { w.timer.Reset(d) }
func (w wallFrameTimer) Stop()                 { w.timer.Stop() }
