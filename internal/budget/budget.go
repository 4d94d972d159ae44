// Package budget is what a model's context window and price make of a reply's token counts:
// how full the context is and what the tokens cost. It knows no model itself; model/catalog
// and the config file say what a model has, and it reaches the engine as a Model.
package budget

import (
	"fmt"
	"math"
	"strconv"

	"github.com/phasechat/phasechat/stream/wire"
)

// Price is what a model charges, in US dollars per million tokens. CachedIn is the price of
// an input token read from the provider's prompt cache and CacheWrite of one written to it;
// 0 means "as In" for both.
type Price struct {
	In, Out, CachedIn, CacheWrite float64
}

// Model is what is known of a model: its context window in tokens (0: unknown) and its price
// (nil: unknown). The zero Model knows nothing, and shows tokens with no percentage or price.
type Model struct {
	Window int
	Price  *Price
	// TextOnly: the model is known to take no images (a message carrying one is refused
	// before it is sent). False when it takes them or nothing is known.
	TextOnly bool
}

// Known reports whether anything is known of the model.
func (m Model) Known() bool { return m.Window > 0 || m.Price != nil }

// Cost is what the usage cost at price p, in US dollars: cached input tokens at the cached
// price, tokens written to the cache at the write price, the other input tokens at In, and the
// completion (its reasoning included) at Out.
func (p Price) Cost(u wire.Usage) float64 {
	cached := min(max(u.CachedTokens, 0), max(u.PromptTokens, 0))
	written := min(max(u.CacheWriteTokens, 0), max(u.PromptTokens, 0)-cached)
	plain := max(u.PromptTokens, 0) - cached - written
	cachedPrice, writePrice := p.In, p.In
	if p.CachedIn > 0 {
		cachedPrice = p.CachedIn
	}
	if p.CacheWrite > 0 {
		writePrice = p.CacheWrite
	}
	return (float64(plain)*p.In + float64(cached)*cachedPrice + float64(written)*writePrice +
		float64(max(u.CompletionTokens, 0))*p.Out) / 1e6
}

// Cost is what u cost on this model, and whether its price is known.
func (m Model) Cost(u wire.Usage) (float64, bool) {
	if m.Price == nil {
		return 0, false
	}
	return m.Price.Cost(u), true
}

// Fill is the share of the context window a request's prompt took, in percent rounded down
// (a prompt over the window is over 100); ok is false when the window is unknown.
func (m Model) Fill(promptTokens int) (percent int, ok bool) {
	if m.Window <= 0 {
		return 0, false
	}
	return int(int64(max(promptTokens, 0)) * 100 / int64(m.Window)), true
}

// Dollars writes a cost for people: "$0.0054", "$1.27", "$0.00" for nothing. Below a dollar it
// keeps two significant digits, so that a cheap reply does not read as free.
func Dollars(usd float64) string {
	switch {
	case usd <= 0:
		return "$0.00"
	case usd >= 1:
		return "$" + strconv.FormatFloat(usd, 'f', 2, 64)
	}
	digits := 2
	for x := usd; x < 0.1 && digits < 8; x *= 10 {
		digits++
	}
	return "$" + strconv.FormatFloat(usd, 'f', digits, 64)
}

// PerMillion writes a price per million tokens with no more digits than it needs: "0.15",
// "2.5", "10" (to four decimals, so that a price stored as 0.39999999999999997 reads 0.4).
func PerMillion(usd float64) string {
	return strconv.FormatFloat(math.Round(usd*1e4)/1e4, 'f', -1, 64)
}

// Tokens writes a window or a count for people: "128k", "1.05M", "900".
func Tokens(n int) string {
	switch {
	case n >= 1_000_000:
		return trimZeros(strconv.FormatFloat(float64(n)/1e6, 'f', 2, 64)) + "M"
	case n >= 1000:
		return trimZeros(strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64)) + "k"
	}
	return fmt.Sprint(n)
}

func trimZeros(s string) string {
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// BytesPerToken is the size of a token, in bytes of text, that every estimate assumes where no
// server has counted: a rough rule for English and JSON (the model's own tokeniser decides).
const BytesPerToken = 4

// EstimateTokens is the tokens of n bytes of text, rounded up (see BytesPerToken).
func EstimateTokens(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }
