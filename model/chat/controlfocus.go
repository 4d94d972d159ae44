package chat

import "github.com/phasechat/phasechat/phase"

// The control holding the cursor (Stop, Retry or the composer) is the engine's: front ends
// ask Focus and draw it, and move it only through FocusComposer and FocusRetry.
//
// Invariants: outside the error phase the focus is the phase's own (phase.FocusFor). Each
// entry into the error phase focuses Retry, or the composer when Retry cannot help
// (RetryCannotHelp); a choice made in one error phase never carries into the next. With no
// key to press Retry with (NoRetryKey), the error phase's focus is always the composer.

// Focus is the control that holds the cursor now.
func (c *Chat) Focus() phase.Focus {
	return phase.FocusFor(c.State.Phase, c.noRetryKey || c.composerFocus)
}

// FocusComposer moves the focus from Retry to the composer (Tab). Only in the error phase.
func (c *Chat) FocusComposer() {
	if c.State.Phase == phase.Error {
		c.composerFocus = true
	}
}

// FocusRetry moves the focus from the composer back to Retry (Shift+Tab). Only in the error
// phase, and not without a key to press Retry with.
func (c *Chat) FocusRetry() {
	if c.State.Phase == phase.Error {
		c.composerFocus = false
	}
}

// NoRetryKey tells the engine the front end has no key to press Retry with (input read from a
// pipe, where every line is a message): from then on the error phase focuses the composer.
func (c *Chat) NoRetryKey() { c.noRetryKey = true }

// focusOnFailure sets the focus for the error phase just entered.
func (c *Chat) focusOnFailure() { c.composerFocus = c.RetryCannotHelp() }
