package chat

// Settled is how many leading entries of the transcript the current turn will not change
// any more: every entry when no request is current, else the entries before the current
// request's reply (its text, reasoning, cards and mark still change, and what is added after
// it is shown after it). A prompt is settled once sent, a reply once its request's stream has
// ended and all its calls are final (the next request of the turn, if any, has its own
// reply), a stopped reply at once, and a failed one at once unless its automatic retry is
// pending and will take its place (RetryNow). The user's own toggles (ToggleDetails) may still
// change a settled entry; the turn does not.
func (c *Chat) Settled() int {
	n := c.tr.Len()
	if c.awaitingRetry() != nil {
		return n - 1
	}
	if c.step == nil {
		return n
	}
	entries := c.tr.Entries()
	for i := n - 1; i >= 0; i-- {
		if entries[i] == c.step.entry {
			return i
		}
	}
	return n
}
