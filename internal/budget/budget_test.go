package budget

import (
	"math"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

func TestCostPricesCachedTokensAsCached(t *testing.T) {
	p := Price{In: 2.5, Out: 10, CachedIn: 1.25, CacheWrite: 3.125}
	for _, tc := range []struct {
		name string
		u    wire.Usage
		want float64
	}{
		{"plain", wire.Usage{PromptTokens: 1_000_000, CompletionTokens: 100_000}, 2.5 + 1},
		{"half cached", wire.Usage{PromptTokens: 1_000_000, CachedTokens: 500_000}, 1.25 + 0.625},
		{"cache writes", wire.Usage{PromptTokens: 1_000_000, CacheWriteTokens: 1_000_000}, 3.125},
		{"reasoning is in the completion", wire.Usage{CompletionTokens: 1000, ReasoningTokens: 900}, 0.01},
		{"cached beyond the prompt is the prompt", wire.Usage{PromptTokens: 10, CachedTokens: 20}, 10 * 1.25 / 1e6},
	} {
		if got := p.Cost(tc.u); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := (Price{In: 2, Out: 8}).Cost(wire.Usage{PromptTokens: 1000, CachedTokens: 1000}); math.Abs(got-0.002) > 1e-12 {
		t.Errorf("no cached price: cached tokens at the input price, got %v", got)
	}
}

func TestUnknownModelHasNoCostNorFill(t *testing.T) {
	var m Model
	if _, ok := m.Cost(wire.Usage{PromptTokens: 5}); ok {
		t.Error("a cost without a price")
	}
	if _, ok := m.Fill(5); ok {
		t.Error("a fill without a window")
	}
	if m.Known() {
		t.Error("the zero model is known")
	}
}

func TestFill(t *testing.T) {
	m := Model{Window: 128_000}
	for prompt, want := range map[int]int{0: 0, 32_000: 25, 127_999: 99, 128_000: 100, 256_000: 200} {
		if got, ok := m.Fill(prompt); !ok || got != want {
			t.Errorf("Fill(%d) = %d, %v; want %d", prompt, got, ok, want)
		}
	}
}

func TestDollarsAndTokens(t *testing.T) {
	for usd, want := range map[float64]string{0: "$0.00", 0.0054: "$0.0054", 0.054: "$0.054", 0.54: "$0.54", 1.274: "$1.27", 0.000012: "$0.000012"} {
		if got := Dollars(usd); got != want {
			t.Errorf("Dollars(%v) = %q, want %q", usd, got, want)
		}
	}
	for n, want := range map[int]string{900: "900", 128_000: "128k", 200_000: "200k", 1_050_000: "1.05M", 1_047_576: "1.05M", 32_768: "32.8k", 1_000_000: "1M"} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}
