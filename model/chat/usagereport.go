package chat

import (
	"fmt"
	"strings"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/stream/wire"
)

// UsageReport is /usage: how full the context is and what fills it (the system prompt, the
// tool definitions, the history as requests send it, each estimated from its size; a
// compaction in force, said), what the last request and the
// conversation used as the server reported it, and what they cost where the price is known.
func (c *Chat) UsageReport() []string {
	m := c.cfg.Budget
	var lines []string
	last, reported := c.LastUsage()
	switch fill, ok := c.Fill(); {
	case ok:
		lines = append(lines, fmt.Sprintf("Context: %d%% of %s tokens (%s at the last request).", fill, budget.Tokens(m.Window), format.Thousands(contextUsed(last))))
	case m.Window > 0:
		lines = append(lines, fmt.Sprintf("Context window: %s tokens; no request has reported its usage yet.", budget.Tokens(m.Window)))
	default:
		lines = append(lines, "Context window: unknown for this model (set context_window in a [model] table of the config file).")
	}
	sent := c.sent()
	estimate := budget.EstimateTokens
	lines = append(lines, fmt.Sprintf("Estimated (4 bytes a token): system prompt ~%s, tool definitions (MCP included) ~%s, history of %d %s ~%s.",
		format.Thousands(estimate(len(c.cfg.System))), format.Thousands(estimate(c.toolBytes())),
		len(sent), format.Plural(len(sent), "message", "messages"), format.Thousands(estimate(historyBytes(sent)))))
	if cp := c.compacted; cp.Turns > 0 {
		lines = append(lines, fmt.Sprintf("Compacted: a summary (~%s tokens) is sent in place of the first %d %s; the saved conversation keeps them.",
			format.Thousands(estimate(len(cp.Summary))), cp.Turns, format.Plural(cp.Turns, "turn", "turns")))
	}
	if reported {
		lines = append(lines, "Last request: "+usageWords(last)+costWords(m, last)+".")
		lines = append(lines, "This conversation: "+usageWords(c.Session)+c.sessionCostWords()+".")
	} else {
		lines = append(lines, "No request has reported its usage yet.")
	}
	return lines
}

// usageWords is a usage in words: "1,200 prompt tokens (1,000 cached), 345 completion tokens
// (200 reasoning)".
func usageWords(u wire.Usage) string {
	var b strings.Builder
	b.WriteString(format.Thousands(u.PromptTokens) + " prompt tokens")
	var of []string
	if u.CachedTokens > 0 {
		of = append(of, format.Thousands(u.CachedTokens)+" cached")
	}
	if u.CacheWriteTokens > 0 {
		of = append(of, format.Thousands(u.CacheWriteTokens)+" written to the cache")
	}
	if len(of) > 0 {
		b.WriteString(" (" + strings.Join(of, ", ") + ")")
	}
	b.WriteString(", " + format.Thousands(u.CompletionTokens) + " completion tokens")
	if u.ReasoningTokens > 0 {
		b.WriteString(" (" + format.Thousands(u.ReasoningTokens) + " reasoning)")
	}
	return b.String()
}

func costWords(m budget.Model, u wire.Usage) string {
	if usd, ok := m.Cost(u); ok {
		return ", " + budget.Dollars(usd)
	}
	return ", price unknown"
}

func (c *Chat) sessionCostWords() string {
	if usd, ok := c.Cost(); ok {
		return ", " + budget.Dollars(usd)
	}
	return ", price unknown"
}
