package chat

import (
	"time"

	"github.com/phasechat/phasechat/phase"
)

// The engine's timers are effects: a Wait asks the front end to hand it back to TimeUp after
// Wait.After (tea.Tick in the full screen, time.After in the line mode). The front end keeps no
// timer state of its own and never cancels a Wait: one the engine no longer expects (its Tag is
// old) does nothing when it comes back, so at most one Wait of each kind matters at a time.
// Every entry point that returns effects adds the Waits its change calls for (see out).

// WaitFor is what a Wait is for.
type WaitFor uint8

const (
	// WaitRetry is one second of the automatic retry's countdown; the retry is sent when the
	// countdown reaches zero (see AutoRetry, RetryIn).
	WaitRetry WaitFor = iota + 1
	// WaitApproval is the stillness of the keyboard an approval question waits for before a key
	// answers it (see ApprovalKeys).
	WaitApproval
)

// Wait asks for TimeUp(Wait) after After.
type Wait struct {
	For   WaitFor
	After time.Duration
	Tag   int
}

func (Wait) isEffect() {}

// retryCountdown is the automatic retry's countdown: seconds left, 0 when none runs.
type retryCountdown struct {
	tag   int
	left  int
	quick bool // the quick retry after a failure before the first byte
}

// RetryIn is how long until the automatic retry is sent, in whole seconds, and whether it is
// the quick one after a failure before the first byte; 0 when none is counting down.
func (c *Chat) RetryIn() (time.Duration, bool) {
	if c.retry.left == 0 || c.State.Phase != phase.Error {
		return 0, false
	}
	return time.Duration(c.retry.left) * time.Second, c.retry.quick
}

// SetApprovalQuiet sets how still the keyboard must be after an approval question appears
// before a key answers it; 0 is ApprovalQuiet.
func (c *Chat) SetApprovalQuiet(d time.Duration) { c.quiet = d }

// TimeUp is the time of w having come. It returns what follows: the automatic retry once its
// countdown ends, the next second of the countdown; notTaken is true when an approval
// question became ready for an answer after a key was not taken (a front end where nothing
// else shows the user that key did nothing says ApprovalNotTaken).
func (c *Chat) TimeUp(w Wait) (effects []Effect, notTaken bool) {
	switch w.For {
	case WaitRetry:
		if w.Tag != c.retry.tag || c.retry.left == 0 {
			return nil, false
		}
		c.retry.left--
		if c.retry.left > 0 {
			return []Effect{c.retryWait()}, false
		}
		return c.RetryNow(), false
	case WaitApproval:
		return nil, c.approval.Quiet(w.Tag)
	}
	return nil, false
}

// ApprovalKey judges a key press (its text: "y", "n", "A", …) made while an approval question
// is shown (see ApprovalKeys): an answer is applied and its effects returned; a key that came
// too soon or is not an answer makes the question wait for the keyboard again (a Wait).
func (c *Chat) ApprovalKey(key string) (KeyVerdict, []Effect) {
	v := c.approval.Key(key)
	switch {
	case v.Answer:
		return v, c.Approve(v.Decision)
	case v.Restart:
		return v, []Effect{Wait{For: WaitApproval, After: c.quietFor(), Tag: v.Gen}}
	}
	return v, nil
}

func (c *Chat) quietFor() time.Duration {
	if c.quiet > 0 {
		return c.quiet
	}
	return ApprovalQuiet
}

// question is which approval question is shown: the request's id and the call's.
type question struct {
	req  int
	call string
}

// questionNow is the question shown now; the zero question when none is.
func (c *Chat) questionNow() question {
	if c.State.Ask == "" || c.step == nil {
		return question{}
	}
	asked, ok := c.step.calls.Asking()
	if !ok {
		return question{}
	}
	return question{c.step.id, asked.ID}
}

func (c *Chat) retryWait() Wait { return Wait{For: WaitRetry, After: time.Second, Tag: c.retry.tag} }

// out is the way out of every entry point that returns effects: it adds the Waits the change
// calls for, a new approval question's and a new automatic retry's countdown, and ends a
// countdown the failure no longer stands for.
func (c *Chat) out(effects []Effect) []Effect {
	effects = append(effects, c.autoCompact()...)
	if q := c.questionNow(); q != c.asked {
		c.asked = q
		if start, gen := c.approval.Arm(c.questionText()); start {
			effects = append(effects, Wait{For: WaitApproval, After: c.quietFor(), Tag: gen})
		}
	}
	wait, ok := c.AutoRetry()
	switch {
	case ok && c.retry.left == 0:
		c.retry.tag++
		c.retry.left = max(1, int((wait+time.Second-1)/time.Second))
		c.retry.quick = wait <= QuickRetryDelay
		effects = append(effects, c.retryWait())
	case !ok:
		c.retry.left = 0
	}
	return effects
}
