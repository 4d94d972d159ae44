package config

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/phasechat/phasechat/internal/secret"
)

// DefaultKeyEnv is the variable the default provider reads its key from when it names no key
// source.
const DefaultKeyEnv = "OPENAI_API_KEY"

// AnthropicKeyEnv is what a default provider of type "anthropic" reads instead.
const AnthropicKeyEnv = "ANTHROPIC_API_KEY"

// Endpoint is a provider ready to send to: its key and headers resolved.
type Endpoint struct {
	Provider string
	BaseURL  string
	APIKey   string
	Headers  map[string]string // values expanded
}

// AddSecrets adds to set the endpoint's credentials, which must never leave the process: the
// key (a key command's output too), the base URL's credentials and every credential header's
// value (CredentialHeaderValue reads the header as configured).
func (e Endpoint) AddSecrets(set *secret.Set, configured map[string]string) {
	set.Add(e.APIKey)
	set.AddURL(e.BaseURL)
	for name, v := range e.Headers {
		if CredentialHeaderValue(name, configured[name]) {
			set.AddHeader(v)
		}
	}
}

// Lookup reads an environment variable; os.LookupEnv is one.
type Lookup func(string) (string, bool)

// Resolver turns providers into Endpoints, each once per session: a key command runs at
// most once per provider, its result (or failure) kept. Safe for concurrent use.
type Resolver struct {
	File    *File
	Env     Lookup
	Timeout time.Duration // a key command's limit; 0: KeyCommandTimeout

	mu   sync.Mutex
	done map[string]*resolution
}

type resolution struct {
	once sync.Once
	ep   Endpoint
	err  error
}

// Resolve returns the named provider's endpoint. The file's default provider reads
// OPENAI_API_KEY (ANTHROPIC_API_KEY for type "anthropic") when it names no key source; the
// others then send no key.
func (r *Resolver) Resolve(ctx context.Context, name string) (Endpoint, error) {
	p := r.File.Providers[name]
	if p == nil {
		return Endpoint{}, fmt.Errorf("no provider named %q in %s%s", name, r.File.Path, known(r.File.Order))
	}
	r.mu.Lock()
	if r.done == nil {
		r.done = map[string]*resolution{}
	}
	res := r.done[name]
	if res == nil {
		res = &resolution{}
		r.done[name] = res
	}
	r.mu.Unlock()
	res.once.Do(func() {
		res.ep, res.err = r.resolve(ctx, p, p == r.File.DefaultProvider())
	})
	return res.ep, res.err
}

func (r *Resolver) resolve(ctx context.Context, p *Provider, isDefault bool) (Endpoint, error) {
	env := r.Env
	if env == nil {
		env = os.LookupEnv
	}
	ep := Endpoint{Provider: p.Name, BaseURL: p.BaseURL, APIKey: p.APIKey}
	where := func(key string) string { return fmt.Sprintf("%s: provider.%s.%s", r.File.Path, p.Name, key) }
	switch {
	case len(p.APIKeyCmd) > 0:
		timeout := r.Timeout
		if timeout <= 0 {
			timeout = KeyCommandTimeout
		}
		key, err := RunKeyCommand(ctx, p.APIKeyCmd, timeout)
		if err != nil {
			return ep, fmt.Errorf("%s: %w", where("api_key_cmd"), err)
		}
		ep.APIKey = key
	case p.APIKeyEnv != "":
		key, ok := env(p.APIKeyEnv)
		if !ok || strings.TrimSpace(key) == "" {
			return ep, fmt.Errorf("%s: the environment variable %s is not set; export it or change api_key_env", where("api_key_env"), p.APIKeyEnv)
		}
		ep.APIKey = strings.TrimSpace(key)
	case p.APIKey == "" && isDefault:
		name := DefaultKeyEnv
		if p.Type == "anthropic" {
			name = AnthropicKeyEnv
		}
		key, _ := env(name)
		ep.APIKey = strings.TrimSpace(key)
	}
	if len(p.Headers) > 0 {
		ep.Headers = make(map[string]string, len(p.Headers))
	}
	for name, v := range p.Headers {
		val, err := expand(v, env)
		if err != nil {
			return ep, fmt.Errorf("%s: %w", where("headers."+name), err)
		}
		ep.Headers[name] = val
	}
	return ep, nil
}
