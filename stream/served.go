package stream

import (
	"encoding/json"
	"strconv"

	"github.com/phasechat/phasechat/internal/budget"
)

// servedBudget reads what a model list's entry says of the model's window and price, in
// OpenRouter's shape: "context_length" in tokens, and "pricing" in US dollars per token as
// decimal strings ("prompt", "completion", "input_cache_read", "input_cache_write"). A value
// that is missing, not a number, or negative (OpenRouter's -1 for a router whose price
// varies) is unknown; a price needs both prompt and completion.
func servedBudget(contextLength, pricing json.RawMessage) budget.Model {
	var m budget.Model
	var window int
	if json.Unmarshal(contextLength, &window) == nil && window > 0 {
		m.Window = window
	}
	var p struct {
		Prompt     json.RawMessage `json:"prompt"`
		Completion json.RawMessage `json:"completion"`
		CacheRead  json.RawMessage `json:"input_cache_read"`
		CacheWrite json.RawMessage `json:"input_cache_write"`
	}
	if json.Unmarshal(pricing, &p) != nil {
		return m
	}
	in, inOK := perMillion(p.Prompt)
	out, outOK := perMillion(p.Completion)
	if !inOK || !outOK {
		return m
	}
	price := budget.Price{In: in, Out: out}
	price.CachedIn, _ = perMillion(p.CacheRead)
	price.CacheWrite, _ = perMillion(p.CacheWrite)
	m.Price = &price
	return m
}

// perMillion reads a price per token, a decimal string or a number, as dollars per million
// tokens; ok is false when it is missing, not a number, or negative.
func perMillion(raw json.RawMessage) (float64, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return v * 1e6, true
}
