// Package catalog says what is known of a model: its context window, its price per million
// tokens and what it accepts, from charm.land/catwalk's embedded catalogue (read once, when
// first asked, offline), and from the config file's per-model overrides.
//
// A model the catalogue does not hold is unknown: its Model is the zero budget.Model, never a
// neighbour's numbers.
package catalog

import (
	"net/url"
	"regexp"
	"strings"
	"sync"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"

	"github.com/phasechat/phasechat/internal/budget"
	"github.com/phasechat/phasechat/stream/wire"
)

// Entry is one catalogued model.
type Entry struct {
	Provider        string // the catalogue's provider id, e.g. "openai"
	ID              string // the model's id as the catalogue writes it
	Model           budget.Model
	Attachments     bool     // accepts images
	ReasoningLevels []string // the reasoning efforts it takes; nil when it does not reason in levels
}

// providers are the catalogue's providers, decoded at the first lookup (about 700 KB of
// JSON: some milliseconds, which Preload takes off the way).
var providers = sync.OnceValue(embedded.GetAll)

// Preload starts decoding the catalogue in the background, so that a lookup made a little
// later does not wait for it.
func Preload() { go providers() }

// hostProviders names the provider of an endpoint whose address the catalogue leaves to an
// environment variable.
var hostProviders = map[string]string{
	"api.openai.com":                    "openai",
	"api.anthropic.com":                 "anthropic",
	"generativelanguage.googleapis.com": "gemini",
}

// Lookup finds model as served at baseURL in the wire format w: the catalogue's provider whose
// endpoint has baseURL's host, else the one of the wire format (OpenAI's for both OpenAI
// formats, Anthropic's for Messages). The id
// matches exactly, else ignoring case, a "provider/" prefix and a date suffix ("-2024-08-06",
// "-20250929") on either side. ok is false when nothing matches.
func Lookup(w wire.Wire, baseURL, model string) (Entry, bool) {
	p := providerFor(w, baseURL)
	if p == nil || strings.TrimSpace(model) == "" {
		return Entry{}, false
	}
	for _, m := range p.Models {
		if m.ID == model {
			return entry(p, m), true
		}
	}
	want := normalise(model)
	for _, m := range p.Models {
		if normalise(m.ID) == want {
			return entry(p, m), true
		}
	}
	return Entry{}, false
}

func providerFor(w wire.Wire, baseURL string) *catwalk.Provider {
	all := providers()
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		host := strings.ToLower(u.Hostname())
		id := hostProviders[host]
		for i := range all {
			if string(all[i].ID) == id || id == "" && endpointHost(all[i].APIEndpoint) == host {
				return &all[i]
			}
		}
	}
	id := "openai"
	if w == wire.WireAnthropic {
		id = "anthropic"
	}
	for i := range all {
		if string(all[i].ID) == id {
			return &all[i]
		}
	}
	return nil
}

func endpointHost(endpoint string) string {
	if strings.HasPrefix(endpoint, "$") {
		return ""
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// dateSuffix is a model version's date at the end of its id.
var dateSuffix = regexp.MustCompile(`-(\d{4}-\d{2}-\d{2}|\d{8})$`)

// normalise is id lower-cased, without what precedes its last "/" and without a date suffix.
func normalise(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	return dateSuffix.ReplaceAllString(id, "")
}

func entry(p *catwalk.Provider, m catwalk.Model) Entry {
	e := Entry{Provider: string(p.ID), ID: m.ID, Attachments: m.SupportsImages, ReasoningLevels: m.ReasoningLevels}
	e.Model.Window = int(m.ContextWindow)
	if m.CostPer1MIn > 0 || m.CostPer1MOut > 0 {
		e.Model.Price = &budget.Price{In: m.CostPer1MIn, Out: m.CostPer1MOut}
		e.Model.Price.CachedIn, e.Model.Price.CacheWrite = cachePrices(m)
	}
	return e
}

// cachePrices reads the catalogue's two cache prices: cost_per_1m_out_cached is the price of a
// cached input token read and cost_per_1m_in_cached the price of one written (Anthropic's
// 1.25× the input price). Some entries hold only a read price, and hold it in
// cost_per_1m_in_cached: a price there below the input price is a read price.
func cachePrices(m catwalk.Model) (read, write float64) {
	read, write = m.CostPer1MOutCached, m.CostPer1MInCached
	if read == 0 && write > 0 && write < m.CostPer1MIn {
		read, write = write, 0
	}
	return read, write
}
