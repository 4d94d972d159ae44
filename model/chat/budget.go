package chat

import (
	"fmt"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/stream/wire"
)

// ToolShareNotice is the share of the context window, in percent, that the tool definitions
// may take before the engine says so, once a session.
const ToolShareNotice = 10

// FillWarning is the context fill, in percent, at which the engine says once that the
// conversation is close to the model's window.
const FillWarning = 80

// spending is what the session's requests used and cost so far.
type spending struct {
	last   wire.Usage // the last request that reported usage
	cost   float64    // of the requests whose model had a price
	priced bool       // some request had a price: cost is worth showing
	warned bool       // the fill warning was said
	// saidTools: the notice that the tool definitions take much of the window was said.
	saidTools bool
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
func (c *Chat) account(u *wire.Usage) (usd float64) {
	if u == nil {
		return 0
	}
	c.Turn = c.Turn.Add(*u)
	c.Session = c.Session.Add(*u)
	c.spend.last = *u
	usd = c.charge(*u)
	c.noteCompactAt()
	if fill, ok := c.Fill(); ok && fill >= FillWarning && !c.spend.warned {
		c.spend.warned = true
		c.notice("%s", fillWarning(fill, contextUsed(*u), c.cfg.Budget.Window))
	}
	return usd
}

// charge adds what u costs at the model's price to the conversation's cost and returns it (0
// when the price is unknown).
func (c *Chat) charge(u wire.Usage) float64 {
	usd, ok := c.cfg.Budget.Cost(u)
	if ok {
		c.spend.cost += usd
		c.spend.priced = true
	}
	return usd
}

// fillWarning says how full the context is and what to do before the model refuses it.
func fillWarning(fill, used, window int) string {
	return fmt.Sprintf("The context is %d%% full (%s of %s tokens): the model will soon refuse the conversation. "+
		"/compact summarises the older turns; /new starts a new one (the saved conversation stays).", fill, budget.Tokens(used), budget.Tokens(window))
}

// noteToolShare says, once a session, when the tools' definitions take more than
// ToolShareNotice percent of the model's window: they go with every request. Their tokens are
// estimated from their size (4 bytes a token).
func (c *Chat) noteToolShare() {
	window := c.cfg.Budget.Window
	if window <= 0 || c.spend.saidTools {
		return
	}
	tokens := budget.EstimateTokens(c.toolBytes())
	if tokens*100 <= window*ToolShareNotice {
		return
	}
	c.spend.saidTools = true
	c.notice("The tool definitions take over %d%% of the context (~%s of %s tokens), in every request: "+
		"turn off MCP servers you do not need here (--mcp, or [mcp.NAME] enabled = false).",
		ToolShareNotice, budget.Tokens(tokens), budget.Tokens(window))
}
