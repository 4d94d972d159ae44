package app

import (
	"strings"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/model/catalog"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/stream/wire"
)

// ModelBudget is what is known of model at the named provider ("" for the session's only
// endpoint): the catalogue's context window, price and whether it takes images, under what
// the provider's GET /models said of its window and price (OpenRouter's context_length and
// pricing), under the config file's [model."ID"] tables. The demo's model is unknown. The
// first call reads the catalogue (see catalog.Preload).
func (s *Settings) ModelBudget(provider, model string) budget.Model {
	if s.Demo && provider == "" {
		return budget.Model{}
	}
	base, as := s.BaseURL, s.Wire
	if provider != "" && provider != s.Provider {
		if p := s.File.Providers[provider]; p != nil {
			base = p.BaseURL
			as, _ = wire.ParseWire(p.Type)
		}
	}
	e, known := catalog.Lookup(as, base, model)
	m := e.Model
	m.TextOnly = known && !e.Attachments
	if served, ok := s.served.get(provider, model); ok {
		if served.Window > 0 {
			m.Window = served.Window
		}
		if served.Price != nil {
			m.Price = served.Price
		}
	}
	return overridden(m, s.File.ModelInfoFor(provider, model))
}

// priceOf is the price of a model as a session log names it (ModelLabel: "provider/model"
// for a provider of the file, else a model of the session's endpoint); nil when not known.
func (s *Settings) priceOf(label string) *budget.Price {
	provider, model := "", label
	if p, m, ok := strings.Cut(label, "/"); ok && s.File != nil && s.File.Providers[p] != nil {
		provider, model = p, m
	}
	return s.ModelBudget(provider, model).Price
}

// overridden is m with what the file sets in place of what the catalogue says; a price the
// file sets for a model the catalogue has none for starts from zero.
func overridden(m budget.Model, o *config.ModelInfo) budget.Model {
	if o == nil {
		return m
	}
	if o.Images != nil {
		m.TextOnly = !*o.Images
	}
	if o.ContextWindow != nil {
		m.Window = *o.ContextWindow
	}
	if o.CostIn == nil && o.CostOut == nil && o.CostCachedIn == nil {
		return m
	}
	var p budget.Price
	if m.Price != nil {
		p = *m.Price
	}
	if o.CostIn != nil {
		p.In = *o.CostIn
	}
	if o.CostOut != nil {
		p.Out = *o.CostOut
	}
	if o.CostCachedIn != nil {
		p.CachedIn = *o.CostCachedIn
	}
	m.Price = &p
	return m
}
