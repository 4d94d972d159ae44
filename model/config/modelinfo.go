package config

import "strings"

// ModelInfo is one [model."ID"] table: what the file says of a model, over what the model
// catalogue knows. ID is "provider/model" for one provider's model, or the model's id for it
// at every provider. A key not set leaves the catalogue's value (nil).
type ModelInfo struct {
	// ContextWindow is the model's context window in tokens.
	ContextWindow *int `toml:"context_window"`
	// CostIn, CostOut and CostCachedIn are US dollars per million input, output and cached
	// input tokens.
	CostIn       *float64 `toml:"cost_in"`
	CostOut      *float64 `toml:"cost_out"`
	CostCachedIn *float64 `toml:"cost_cached_in"`
	// Images says whether the model takes images, over what the catalogue says: false refuses
	// them before sending, true sends them to a model the catalogue says takes none.
	Images *bool `toml:"images"`
}

// modelInfoKeys are a [model."ID"] table's keys.
var modelInfoKeys = []string{"context_window", "cost_in", "cost_out", "cost_cached_in", "images"}

// ModelInfoFor is what the file says of model at the named provider: the provider's own table
// ("provider/model") over the one for the model at every provider. nil when neither exists.
func (f *File) ModelInfoFor(provider, model string) *ModelInfo {
	if f == nil || len(f.ModelInfo) == 0 {
		return nil
	}
	general, specific := f.ModelInfo[model], (*ModelInfo)(nil)
	if provider != "" {
		specific = f.ModelInfo[provider+"/"+model]
	}
	switch {
	case specific == nil:
		return general
	case general == nil:
		return specific
	}
	merged := *general
	if specific.ContextWindow != nil {
		merged.ContextWindow = specific.ContextWindow
	}
	if specific.CostIn != nil {
		merged.CostIn = specific.CostIn
	}
	if specific.CostOut != nil {
		merged.CostOut = specific.CostOut
	}
	if specific.CostCachedIn != nil {
		merged.CostCachedIn = specific.CostCachedIn
	}
	if specific.Images != nil {
		merged.Images = specific.Images
	}
	return &merged
}

// checkModelInfo reports the values a [model."ID"] table may not hold.
func checkModelInfo(id string, m *ModelInfo, bad func(field, format string, args ...any)) {
	if strings.TrimSpace(id) == "" {
		bad("", "names no model: write [model.\"gpt-4o\"] or [model.\"provider/model\"]")
	}
	if m.ContextWindow != nil && *m.ContextWindow < 1 {
		bad("context_window", "must be at least 1 (tokens), not %d", *m.ContextWindow)
	}
	for _, c := range []struct {
		key string
		v   *float64
	}{{"cost_in", m.CostIn}, {"cost_out", m.CostOut}, {"cost_cached_in", m.CostCachedIn}} {
		if c.v != nil && *c.v < 0 {
			bad(c.key, "must be 0 or more (US dollars per million tokens), not %v", *c.v)
		}
	}
}
