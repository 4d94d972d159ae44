package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/config"
	"github.com/phasechat/phasechat/model/sessions"
	"github.com/phasechat/phasechat/model/tui"
	"github.com/phasechat/phasechat/stream"
	"github.com/phasechat/phasechat/stream/wire"
)

// continueWithSavedModel makes a continued conversation (--continue, --resume ID) go on with
// the provider and model it was saved with, when no flag names one and the file still
// defines that provider. Anything that stops the lookup leaves the choice to the file.
func continueWithSavedModel(o *chatOptions, file *config.File) {
	fromStore := o.continueLast || (o.resume != "" && !isFile(o.resume))
	if !fromStore || o.set["model"] || o.set["m"] || o.set["provider"] {
		return
	}
	store, err := openSessions()
	if err != nil {
		return
	}
	var m sessions.Meta
	if o.continueLast {
		m, err = store.Latest()
	} else {
		m, err = store.Find(o.resume)
	}
	if err != nil {
		return
	}
	if provider, _, ok := strings.Cut(m.Model, "/"); ok && file.Providers[provider] != nil {
		o.model = m.Model
	}
}

// discoverTimeout bounds a GET /models asked for at startup or by the model picker.
const discoverTimeout = 15 * time.Second

// target is where a session's requests go.
type target struct {
	ep       endpoint
	client   *stream.Client
	provs    *providers   // nil when no config file defines providers
	provider string       // the chosen provider; "" without providers
	file     *config.File // the config file read; nil when there is none
	secrets  *secret.Set  // every secret of the run; providers add theirs as they are resolved
}

// chooseTarget reads the config file, fills o's unset settings from it, and picks the
// endpoint: the file's providers when it has some (see usesProviders), else the flags and
// OPENAI_* variables, else the built-in demo. Call t.ep.stop when done.
func chooseTarget(o *chatOptions, stderr io.Writer) (target, error) {
	file, err := loadConfig(*o, stderr)
	if err != nil {
		return target{}, err
	}
	applyConfig(o, file)
	if usesProviders(*o, file) {
		continueWithSavedModel(o, file)
		provs := newProviders(file, *o)
		choice, c, err := provs.start(*o)
		if err != nil {
			return target{}, err
		}
		return target{ep: endpoint{baseURL: c.BaseURL, model: choice.Model, stop: func() {}}, client: c, provs: provs, provider: choice.Provider, file: file, secrets: provs.set}, nil
	}
	if o.provider != "" {
		return target{}, usageError{fmt.Errorf("--provider %s needs a config file that defines it (%s)", o.provider, configPlace(*o))}
	}
	ep, err := resolveEndpoint(*o)
	if err != nil {
		return target{}, err
	}
	client := stream.NewClient(ep.baseURL, ep.apiKey)
	client.Wire = ep.wire
	client.StallTimeout = o.stallTimeout
	client.MaxReply = o.maxReply()
	set := envSecrets()
	set.Add(ep.apiKey)
	set.AddURL(ep.baseURL)
	client.Secrets = set
	return target{ep: ep, client: client, secrets: set, file: file}, nil
}

// loadConfig reads the config file: --config, else the default place (which may be absent:
// then nil). Warnings go to stderr.
func loadConfig(o chatOptions, stderr io.Writer) (*config.File, error) {
	path, explicit := o.config, o.config != ""
	if !explicit {
		p, err := config.DefaultPath(os.Getenv)
		if err != nil {
			return nil, nil
		}
		path = p
	}
	f, err := config.Load(path)
	if err != nil {
		switch {
		case !explicit && errors.Is(err, fs.ErrNotExist):
			return nil, nil
		case errors.Is(err, fs.ErrNotExist):
			return nil, usageError{fmt.Errorf("the config file %s given with --config does not exist: check the path, or leave out --config to read the default one", path)}
		}
		return nil, err
	}
	for _, w := range f.Warnings {
		fmt.Fprintln(stderr, "phasechat: warning:", w)
	}
	return f, nil
}

// applyConfig fills the session settings the command line left unset from the file: flags
// beat the config file.
func applyConfig(o *chatOptions, f *config.File) {
	if f == nil {
		return
	}
	if f.System != "" && !o.set["system"] {
		o.system = f.System
	}
	if f.StallTimeout != nil && !o.set["stall-timeout"] {
		o.stallTimeout = f.StallTimeout.Duration
	}
	if f.MaxSteps > 0 && !o.set["max-steps"] {
		o.maxSteps = f.MaxSteps
	}
	if f.MaxReply > 0 && !o.set["max-reply"] {
		o.maxReplyMiB = f.MaxReply
	}
	if f.Theme != "" && !o.set["theme"] {
		o.theme = f.Theme
	}
	if f.Measure > 0 {
		o.measure = f.Measure
	}
	if f.Save != nil && !*f.Save && !o.set["no-save"] {
		o.noSave = true
	}
	if f.Inline != nil && !o.set["inline"] {
		o.inline = *f.Inline
	}
}

// usesProviders reports whether the session's endpoint comes from the file's providers: the
// file defines some, and --base-url alone does not name an endpoint of its own.
func usesProviders(o chatOptions, f *config.File) bool {
	return f != nil && len(f.Order) > 0 && (o.provider != "" || !o.set["base-url"])
}

// providers is the session's set of configured providers: each one's client made once, when
// first used (its key resolved then, which may run its key command). Safe for concurrent use.
type providers struct {
	file     *config.File
	resolver *config.Resolver
	stall    time.Duration
	maxReply int64     // bytes; every client's MaxReply
	baseURL  string    // --base-url: replaces the chosen provider's base_url
	wire     wire.Wire // --wire: replaces the chosen provider's type ("" when not given)
	chosen   string

	mu      sync.Mutex
	clients map[string]*stream.Client
	set     *secret.Set // every key, header value and base URL credential resolved so far, for redaction
}

func newProviders(f *config.File, o chatOptions) *providers {
	return &providers{file: f, resolver: &config.Resolver{File: f}, stall: o.stallTimeout, maxReply: o.maxReply(), clients: map[string]*stream.Client{}, set: envSecrets()}
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
	if name == p.chosen && p.baseURL != "" {
		ep.BaseURL = p.baseURL
	}
	p.set.Add(ep.Secrets()...)
	p.set.AddURL(ep.BaseURL)
	for _, v := range ep.Headers {
		p.set.AddHeader(v)
	}
	c = providerClient(ep, p.file.Providers[name], p.stall)
	c.MaxReply = p.maxReply
	if name == p.chosen && p.wire != "" {
		c.Wire = p.wire
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
func providerClient(ep config.Endpoint, p *config.Provider, stall time.Duration) *stream.Client {
	c := stream.NewClient(ep.BaseURL, ep.APIKey)
	c.Wire, _ = wire.ParseWire(p.Type) // checked when the file was read
	c.StallTimeout = stall
	switch {
	case len(p.APIKeyCmd) > 0:
		c.KeySource = "the api_key_cmd of provider " + p.Name
	case p.APIKeyEnv != "":
		c.KeySource = p.APIKeyEnv
	case p.APIKey != "":
		c.KeySource = "the api_key of provider " + p.Name
	}
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

// start chooses the session's provider and model and makes its client. A provider that
// names no model gets the first the server lists.
func (p *providers) start(o chatOptions) (config.Choice, *stream.Client, error) {
	choice, err := p.file.Choose(o.provider, o.model)
	if err != nil && o.provider != "" {
		return choice, nil, usageError{err} // --provider names none of the file's
	}
	if err != nil {
		return choice, nil, err
	}
	p.chosen = choice.Provider
	if o.set["base-url"] {
		p.baseURL = o.baseURL
	}
	if o.set["wire"] {
		if p.wire, err = wire.ParseWire(o.wire); err != nil {
			return choice, nil, usageError{err}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), config.KeyCommandTimeout+discoverTimeout)
	defer cancel()
	c, err := p.client(ctx, choice.Provider)
	if err != nil {
		return choice, nil, err
	}
	if choice.Model == "" {
		models, err := c.ListModels(ctx)
		if err != nil || len(models) == 0 {
			why := "it lists none"
			if err != nil {
				why = err.Error()
			}
			return choice, nil, fmt.Errorf("provider %s names no model and asking the server for its models failed (%s): set default_model or models in %s, or pass --model", choice.Provider, why, p.file.Path)
		}
		choice.Model = models[0]
	}
	return choice, c, nil
}

// models lists every provider's models for the picker: the file's lists, and the server's
// for providers that list none. A provider that cannot be asked is reported and skipped.
func (p *providers) models(ctx context.Context) ([]tui.ModelItem, []string) {
	var items []tui.ModelItem
	var problems []string
	for _, name := range p.file.Order {
		prov := p.file.Providers[name]
		names := prov.ListedModels()
		endpoint := prov.BaseURL
		if name == p.chosen && p.baseURL != "" {
			endpoint = p.baseURL
		}
		wire, _ := wire.ParseWire(prov.Type)
		if name == p.chosen && p.wire != "" {
			wire = p.wire
		}
		if len(names) == 0 {
			c, err := p.client(ctx, name)
			if err == nil {
				dctx, cancel := context.WithTimeout(ctx, discoverTimeout)
				names, err = c.ListModels(dctx)
				cancel()
			}
			if err != nil {
				problems = append(problems, name+": "+err.Error())
				continue
			}
		}
		for _, m := range names {
			items = append(items, tui.ModelItem{Provider: name, Model: m, Endpoint: endpointLabel(endpoint), Wire: wire.Label()})
		}
	}
	return items, problems
}

// keyVariables names the environment variables the configured providers take credentials
// from (api_key_env, and ${VAR} in header values): no tool gets them.
func (p *providers) keyVariables() []string {
	var names []string
	for _, prov := range p.file.Providers {
		if prov.APIKeyEnv != "" {
			names = append(names, prov.APIKeyEnv)
		}
		for _, v := range prov.Headers {
			for _, m := range headerVar.FindAllStringSubmatch(v, -1) {
				names = append(names, m[1])
			}
		}
	}
	return names
}

var headerVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// modelLabel names the session's model as the sessions list shows it: provider/model when it
// comes from the config file's providers.
func (t target) modelLabel() string {
	if t.provider == "" {
		return t.ep.model
	}
	return t.provider + "/" + t.ep.model
}
