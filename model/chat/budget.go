package chat

import (
	"fmt"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/stream/wire"
)

// FillWarning is the context fill, in percent, at which the engine says once that the
// conversation is close to the model's window.
const FillWarning = 80

// spending is what the session's requests used and cost so far.
type spending struct {
	last   wire.Usage // the last request that reported usage
	cost   float64    // of the requests whose model had a price
	priced bool       // some request had a price: cost is worth showing
	warned bool       // the fill warning was said
}

// SetBudget tells the engine the context window and price of the model in use (the zero
// budget.Model when unknown). The model's owner looks them up; SetModel keeps the old ones
// until it is called again.
func (c *Chat) SetBudget(m budget.Model) { c.cfg.Budget = m }

// Budget is the context window and price of the model in use, as last set.
func (c *Chat) Budget() budget.Model { return c.cfg.Budget }

// LastUsage is the usage the last request reported; ok is false before any did.
func (c *Chat) LastUsage() (u wire.Usage, ok bool) {
	return c.spend.last, c.spend.last != (wire.Usage{})
}

// Cost is what the session's requests cost in US dollars, counting those whose model had a
// price; ok is false when none had.
func (c *Chat) Cost() (usd float64, ok bool) { return c.spend.cost, c.spend.priced }

// Fill is how full the model's context was at the last request (its prompt and its reply), in
// percent of the window; ok is false when the window is unknown or no request reported usage.
func (c *Chat) Fill() (percent int, ok bool) {
	u, reported := c.LastUsage()
	if !reported {
		return 0, false
	}
	return c.cfg.Budget.Fill(contextUsed(u))
}

// contextUsed is what a request left in the context: its prompt and its reply.
func contextUsed(u wire.Usage) int { return u.PromptTokens + u.CompletionTokens }

// account adds a request's usage to the turn's and the session's, prices it at the model in
// use, and says once when the context is FillWarning percent full.
func (c *Chat) account(u *wire.Usage) {
	if u == nil {
		return
	}
	c.Turn = c.Turn.Add(*u)
	c.Session = c.Session.Add(*u)
	c.spend.last = *u
	if usd, ok := c.cfg.Budget.Cost(*u); ok {
		c.spend.cost += usd
		c.spend.priced = true
	}
	if fill, ok := c.Fill(); ok && fill >= FillWarning && !c.spend.warned {
		c.spend.warned = true
		c.notice("%s", fillWarning(fill, contextUsed(*u), c.cfg.Budget.Window))
	}
}

// fillWarning says how full the context is and what to do before the model refuses it.
func fillWarning(fill, used, window int) string {
	return fmt.Sprintf("The context is %d%% full (%s of %s tokens): the model will soon refuse the conversation. "+
		"/new starts a new one (the saved conversation stays).", fill, budget.Tokens(used), budget.Tokens(window))
}
