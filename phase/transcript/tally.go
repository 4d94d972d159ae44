package transcript

import "time"

// Tally is what a finished turn used, shown under its last reply in one quiet line: the model,
// how long the turn took (from its message to its last reply, tool round trips included), the
// tokens of its requests as the server reported them, and its cost when the model's price is
// known. A count of 0 was not reported. Model is untrusted.
type Tally struct {
	Model      string
	Duration   time.Duration // 0: not measured
	Prompt     int           // input tokens, Cached of them read from the provider's cache
	Cached     int
	Completion int // output tokens, Reasoning of them spent reasoning
	Reasoning  int
	Cost       float64 // US dollars, when Priced
	Priced     bool
}

// SetTally puts the turn's tally under the reply e, which ended the turn.
func (t *Transcript) SetTally(e *Entry, tally Tally) {
	e.tally = &tally
	e.bump()
}

// Tally is the tally of the turn this reply ended; ok is false for any other entry.
func (e *Entry) Tally() (tally Tally, ok bool) {
	if e.tally == nil {
		return Tally{}, false
	}
	return *e.tally, true
}
