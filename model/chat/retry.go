package chat

import (
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// QuickRetryDelay is how long the one automatic retry of a request that failed before its
// first byte waits.
const QuickRetryDelay = time.Second

// autoRetry says whether the request that just failed is retried on its own, and after how
// long: once per failure the user has not acted on, after a 429's or 503's Retry-After, or
// after QuickRetryDelay for a failure before the first byte (refused, 502/503/504, an empty
// 500). The engine counts the time down by Waits (see RetryIn) and calls retryNow when it is up.
func (c *Chat) autoRetry() (time.Duration, bool) {
	if c.State.Phase != phase.Error || c.autoRetried || c.failErr == nil {
		return 0, false
	}
	switch {
	case c.failErr.RetryAfter > 0:
		return c.failErr.RetryAfter, true
	case c.failErr.Retry() == wire.RetrySoon:
		return QuickRetryDelay, true
	}
	return 0, false
}

// RetryCannotHelp reports whether the failed request would fail the same way again (the
// conversation is too long): the front end then offers the composer first, Retry second.
func (c *Chat) RetryCannotHelp() bool {
	return c.State.Phase == phase.Error && c.failErr.Retry() == wire.RetryUseless
}

// retryNow is the automatic retry autoRetry announced: Retry, counted so that it happens once.
func (c *Chat) retryNow() []Effect {
	if _, ok := c.autoRetry(); !ok {
		return nil
	}
	effects := c.Retry()
	c.autoRetried = true
	return effects
}
