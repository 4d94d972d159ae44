package chat

import (
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
)

// QuickRetryDelay is how long the one automatic retry of a request that failed before its
// first byte waits.
const QuickRetryDelay = time.Second

// AutoRetry says whether the request that just failed is retried on its own, and after how
// long: once per failure the user has not acted on, after a 429's or 503's Retry-After, or
// after QuickRetryDelay for a failure before the first byte (refused, 502/503/504, an empty
// 500). The engine counts the time down by Waits (see RetryIn) and calls RetryNow when it is up.
func (c *Chat) AutoRetry() (time.Duration, bool) {
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

// RetryNow is the automatic retry AutoRetry announced: Retry, counted so that it happens once.
// A failure and its automatic retry show as one reply: the failed reply, empty and last, makes
// way for the retry's, and should the retry fail too, its mark says it was retried once.
func (c *Chat) RetryNow() []Effect {
	if _, ok := c.AutoRetry(); !ok {
		return nil
	}
	if c.awaitingRetry() != nil {
		c.tr.Truncate(c.tr.Len() - 1)
	}
	effects := c.Retry()
	c.autoRetried = true
	c.retryReq = c.nextReq
	return effects
}

// RetriedNote is what a failed reply's mark adds when the request was the automatic retry.
const RetriedNote = " (retried once)"

// emptyReply reports whether a reply shows nothing but its mark.
func emptyReply(e *transcript.Entry) bool {
	return e.Text() == "" && e.Reasoning() == "" && len(e.Cards()) == 0
}

// awaitingRetry is the failed reply while its automatic retry is pending and would replace
// it; nil otherwise.
func (c *Chat) awaitingRetry() *transcript.Entry {
	if _, ok := c.AutoRetry(); !ok {
		return nil
	}
	if e := c.failed.entry; c.tr.Last() == e && emptyReply(e) {
		return e
	}
	return nil
}
