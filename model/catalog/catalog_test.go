package catalog

import (
	"testing"

	"charm.land/catwalk/pkg/embedded"

	"github.com/phasechat/phasechat/stream/wire"
)

func TestLookupNormalisesTheModelID(t *testing.T) {
	for _, tc := range []struct {
		name                              string
		kind                              wire.Wire
		base, model, wantProvider, wantID string
	}{
		{"exact, by the wire format", wire.WireChat, "http://127.0.0.1:8080/v1", "gpt-4o-mini", "openai", "gpt-4o-mini"},
		{"a dated id", wire.WireChat, "https://api.openai.com/v1", "gpt-4o-2024-08-06", "openai", "gpt-4o"},
		{"a provider prefix", wire.WireResponses, "", "openai/gpt-4o", "openai", "gpt-4o"},
		{"an alias of a dated entry", wire.WireAnthropic, "https://api.anthropic.com/v1", "claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5-20250929"},
		{"case", wire.WireAnthropic, "", "Claude-Sonnet-4-5-20250929", "anthropic", "claude-sonnet-4-5-20250929"},
		{"by the endpoint's host", wire.WireChat, "https://api.deepseek.com/v1", "deepseek-v4-pro", "deepseek", "deepseek-v4-pro"},
		{"openrouter keeps its prefixes", wire.WireChat, "https://openrouter.ai/api/v1", "moonshotai/kimi-k2", "openrouter", "moonshotai/kimi-k2"},
	} {
		e, ok := Lookup(tc.kind, tc.base, tc.model)
		if !ok || e.Provider != tc.wantProvider || e.ID != tc.wantID {
			t.Errorf("%s: Lookup(%q, %q, %q) = %s/%s, %v; want %s/%s", tc.name, tc.kind, tc.base, tc.model, e.Provider, e.ID, ok, tc.wantProvider, tc.wantID)
		}
		if e.Model.Window <= 0 || e.Model.Price == nil {
			t.Errorf("%s: %+v has no window or price", tc.name, e.Model)
		}
	}
}

func TestUnknownModelsAreNotGuessed(t *testing.T) {
	for _, model := range []string{"llama3.2", "gpt-4o-mini-but-not", "", "gpt"} {
		if e, ok := Lookup(wire.WireChat, "http://127.0.0.1:11434/v1", model); ok || e.Model.Known() {
			t.Errorf("%q: found %s/%s", model, e.Provider, e.ID)
		}
	}
	if _, ok := Lookup(wire.WireChat, "https://api.deepseek.com/v1", "gpt-4o"); ok {
		t.Error("a model another provider sells is found at DeepSeek's endpoint")
	}
}

func TestCachePricesAreReadAndWrite(t *testing.T) {
	e, _ := Lookup(wire.WireAnthropic, "", "claude-sonnet-4-5")
	if p := e.Model.Price; p == nil || p.In != 3 || p.Out != 15 || p.CachedIn != 0.3 || p.CacheWrite != 3.75 {
		t.Errorf("claude-sonnet-4-5: %+v, want in 3, out 15, cached read 0.3, cache write 3.75", p)
	}
	e, _ = Lookup(wire.WireChat, "", "gpt-4o")
	if p := e.Model.Price; p == nil || p.In != 2.5 || p.CachedIn != 1.25 || p.CacheWrite != 0 || e.Model.Window != 128_000 {
		t.Errorf("gpt-4o: %+v, window %d; want in 2.5, cached read 1.25, 128k", p, e.Model.Window)
	}
	e, _ = Lookup(wire.WireChat, "", "gpt-5.5")
	if p := e.Model.Price; p == nil || p.CachedIn != 0.5 || p.CacheWrite != 0 {
		t.Errorf("gpt-5.5 (a read price under cost_per_1m_in_cached): %+v", p)
	}
}

// BenchmarkCatalogueDecode is what the first lookup costs: decoding every embedded provider.
func BenchmarkCatalogueDecode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		embedded.GetAll()
	}
}

func BenchmarkLookup(b *testing.B) {
	Lookup(wire.WireChat, "", "gpt-4o")
	b.ReportAllocs()
	for b.Loop() {
		Lookup(wire.WireChat, "https://api.openai.com/v1", "gpt-4o-2024-08-06")
	}
}
