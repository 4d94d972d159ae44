package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/phasechat/phasechat/internal/format"
	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
)

// discoverTimeout bounds a GET /models asked for at startup or by the model picker.
const discoverTimeout = 15 * time.Second

// providers is the session's set of configured providers: each one's client made once, when
// first used (its key resolved then, which may run its key command). The chosen one's client
// takes the session's base URL and wire format. Safe for concurrent use.
type providers struct {
	s        *Settings
	resolver *Resolver
	discover time.Duration // the bound on one GET /models

	mu      sync.Mutex
	clients map[string]*stream.Client
	set     *secret.Set // every key, header value and base URL credential resolved so far, for redaction
}

func newProviders(s *Settings, set *secret.Set) *providers {
	addFileSecrets(set, s.File, s.Env) // every provider's, used this run or not
	if s.served == nil {
		s.served = &servedBudgets{}
	}
	return &providers{s: s, resolver: &Resolver{File: s.File, Env: s.Env}, discover: discoverTimeout, clients: map[string]*stream.Client{}, set: set}
}

// client returns the named provider's client.
func (p *providers) client(ctx context.Context, name string) (*stream.Client, error) {
	p.mu.Lock()
	c := p.clients[name]
	p.mu.Unlock()
	if c != nil {
		return c, nil
	}
	ep, err := p.resolver.Resolve(ctx, name)
	if err != nil {
		return nil, err
	}
	chosen := name == p.s.Provider
	if chosen {
		ep.BaseURL = p.s.BaseURL
	}
	prov := p.s.File.Providers[name]
	ep.AddSecrets(p.set, prov.Headers)
	c = providerClient(ep, prov, p.s.StallTimeout)
	c.MaxReply = p.s.MaxReply
	if chosen {
		c.Wire = p.s.Wire
		c.NoSuchModel = p.s.noSuchModel()
	}
	c.Secrets = p.set
	p.mu.Lock()
	defer p.mu.Unlock()
	if have := p.clients[name]; have != nil {
		return have, nil
	}
	p.clients[name] = c
	return c, nil
}

// providerClient is a stream client for one configured provider.
func providerClient(ep Endpoint, p *config.Provider, stall time.Duration) *stream.Client {
	c := stream.NewClient(ep.BaseURL, ep.APIKey)
	c.Wire, _ = wire.ParseWire(p.Type) // checked when the file was read
	c.StallTimeout = stall
	c.KeySource = keySource(p, false).label(p)
	c.Headers = ep.Headers
	c.Options = wire.Options{MaxTokens: p.MaxTokens, Temperature: p.Temperature, ReasoningEffort: p.ReasoningEffort, ExtraBody: p.ExtraBody}
	switch p.StreamOptions {
	case config.StreamOptionsOn:
		c.Options.StreamOptions = wire.StreamOptionsAlways
	case config.StreamOptionsOff:
		c.Options.StreamOptions = wire.StreamOptionsNever
	}
	return c
}

// start makes the chosen provider's client. A provider that names no model gets the first
// its server lists, which becomes the session's model. The key command and the listing are
// each bounded on their own (KeyCommandTimeout, then discoverTimeout).
func (p *providers) start() (*stream.Client, error) {
	ctx := context.Background()
	c, err := p.client(ctx, p.s.Provider)
	if err != nil {
		return nil, err
	}
	if p.s.Model == "" {
		models, err := p.listModels(ctx, p.s.Provider, c)
		if err != nil || len(models) == 0 {
			why := "it lists none"
			if err != nil {
				why = err.Error()
			}
			return nil, fmt.Errorf("provider %s names no model and asking the server for its models failed (%s): set default_model or models in %s, or pass --model", p.s.Provider, why, p.s.File.Path)
		}
		p.s.Model = models[0]
	}
	return c, nil
}

// models lists every provider's models for the picker: the file's lists, and the server's
// for providers that list none. A provider that cannot be asked is reported and skipped.
func (p *providers) models(ctx context.Context) ([]chat.ModelChoice, []string) {
	var items []chat.ModelChoice
	var problems []string
	for _, name := range p.s.File.Order {
		prov := p.s.File.Providers[name]
		names := prov.ListedModels()
		endpoint := prov.BaseURL
		as, _ := wire.ParseWire(prov.Type)
		if name == p.s.Provider {
			endpoint, as = p.s.BaseURL, p.s.Wire
		}
		if len(names) == 0 {
			c, err := p.client(ctx, name)
			if err == nil {
				names, err = p.listModels(ctx, name, c)
			}
			if err != nil {
				problems = append(problems, name+": "+err.Error())
				continue
			}
		}
		for _, m := range names {
			items = append(items, chat.ModelChoice{Provider: name, Model: m, Endpoint: format.Endpoint(endpoint), Wire: as.Label(),
				Budget: p.s.ModelBudget(name, m)})
		}
	}
	return items, problems
}

// listModels asks the named provider's server (c) for its models, waiting at most p.discover
// for the answer; a server silent that long is said to be. The window and price it says of a
// model are kept for ModelBudget.
func (p *providers) listModels(ctx context.Context, provider string, c *stream.Client) ([]string, error) {
	dctx, cancel := context.WithTimeout(ctx, p.discover)
	defer cancel()
	served, err := c.ListModels(dctx)
	if err != nil && ctx.Err() == nil && errors.Is(dctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("the server did not answer GET /models within %s", format.WrittenDuration(p.discover))
	}
	names := make([]string, 0, len(served))
	for _, m := range served {
		names = append(names, m.ID)
		p.s.served.put(provider, m.ID, m.Budget)
	}
	return names, err
}
