package chat

import (
	"time"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/phase/transcript"
)

// turnClock is the current turn's live figures. They change only when the front end tells the
// engine the time (Tick, once a second while a request is in flight), never per token, so a
// fast stream draws the same status line until the next second.
type turnClock struct {
	start     time.Time // when the turn's first request went out; zero before any
	elapsed   time.Duration
	tokens    int
	estimated bool
	// reported is the request whose usage the server reported: its tokens are in Chat.Turn.
	reported int
}

// Counters is how long the turn in flight has run, in whole seconds, and how many tokens its
// replies have, as of the last Tick; estimated says the count includes an estimate from the
// bytes streamed (the server reports a reply's tokens at its end). All zero when no request is
// in flight.
func (c *Chat) Counters() (elapsed time.Duration, tokens int, estimated bool) {
	if !c.State.Phase.Streaming() {
		return 0, 0, false
	}
	return c.clock.elapsed, c.clock.tokens, c.clock.estimated
}

// countTurn updates the live figures at now.
func (c *Chat) countTurn(now time.Time) {
	k := &c.clock
	k.elapsed = max(0, now.Sub(k.start)).Truncate(time.Second)
	k.tokens, k.estimated = c.Turn.CompletionTokens, false
	if st := c.step; st != nil && st.id != k.reported {
		if n := c.State.Text.Len() + c.State.Reasoning.Len(); n > 0 {
			k.tokens += budget.EstimateTokens(n)
			k.estimated = true
		}
	}
}

// startClock marks the start of a turn's first request.
func (c *Chat) startClock() {
	c.clock = turnClock{start: c.now()}
}

// tally puts what the turn used under its last reply.
func (c *Chat) tally(st *step) {
	u := c.Turn
	t := transcript.Tally{Model: c.modelLabel(), Prompt: u.PromptTokens, Cached: u.CachedTokens,
		Completion: u.CompletionTokens, Reasoning: u.ReasoningTokens}
	if !c.clock.start.IsZero() {
		t.Duration = max(0, c.now().Sub(c.clock.start))
	}
	t.Cost, t.Priced = c.cfg.Budget.Cost(u)
	c.tr.SetTally(st.entry, t)
}

// modelLabel names the model in use as the user chose it: "provider/model" when the provider
// is named.
func (c *Chat) modelLabel() string {
	if c.cfg.Provider != "" {
		return c.cfg.Provider + "/" + c.cfg.Model
	}
	return c.cfg.Model
}
