package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/phasechat/phasechat/model/config"
)

// DefaultKeyEnv is the variable the default provider reads its key from when it names no key
// source, and the endpoint given without a config file reads it from.
const DefaultKeyEnv = "OPENAI_API_KEY"

// AnthropicKeyEnv is what either reads instead for the Anthropic Messages format.
const AnthropicKeyEnv = "ANTHROPIC_API_KEY"

// Lookup reads an environment variable; os.LookupEnv is one.
type Lookup func(string) (string, bool)

// KeySource is where an endpoint's key comes from: at most one of its fields is set, none
// when no key is sent.
type KeySource struct {
	Env     string   // an environment variable
	Command []string // a program that prints the key (api_key_cmd)
	InFile  bool     // the config file holds it (api_key)
}

// keySource is where provider p takes its key from: its api_key_cmd, api_key_env or api_key,
// else, for the file's default provider only, OPENAI_API_KEY (ANTHROPIC_API_KEY for type
// "anthropic").
func keySource(p *config.Provider, isDefault bool) KeySource {
	switch {
	case len(p.APIKeyCmd) > 0:
		return KeySource{Command: p.APIKeyCmd}
	case p.APIKeyEnv != "":
		return KeySource{Env: p.APIKeyEnv}
	case p.APIKey != "":
		return KeySource{InFile: true}
	case isDefault && p.Type == "anthropic":
		return KeySource{Env: AnthropicKeyEnv}
	case isDefault:
		return KeySource{Env: DefaultKeyEnv}
	}
	return KeySource{}
}

// label names a provider's key source in the advice an HTTP 401 gets; "" for the variable a
// default provider reads without saying so.
func (k KeySource) label(p *config.Provider) string {
	switch {
	case len(k.Command) > 0:
		return "the api_key_cmd of provider " + p.Name
	case k.Env != "" && k.Env == p.APIKeyEnv:
		return k.Env
	case k.InFile:
		return "the api_key of provider " + p.Name
	}
	return ""
}

// Endpoint is a provider ready to send to: its key and headers resolved.
type Endpoint struct {
	Provider string
	BaseURL  string
	APIKey   string
	Headers  map[string]string // values expanded
}

// Resolver turns providers into Endpoints, each once per session: a key command runs at
// most once per provider while it succeeds, its key kept; a failure is reported to every
// caller waiting on that run and forgotten, so the next request (a Retry once the user has
// fixed the key's source) resolves again. Safe for concurrent use.
type Resolver struct {
	File    *config.File
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

// Resolve returns the named provider's endpoint, its key read from its keySource.
func (r *Resolver) Resolve(ctx context.Context, name string) (Endpoint, error) {
	p, err := r.File.Named(name)
	if err != nil {
		return Endpoint{}, err
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
		res.ep, res.err = r.resolve(ctx, p, keySource(p, p == r.File.DefaultProvider()))
		if res.err != nil {
			r.mu.Lock()
			if r.done[name] == res {
				delete(r.done, name)
			}
			r.mu.Unlock()
		}
	})
	return res.ep, res.err
}

func (r *Resolver) resolve(ctx context.Context, p *config.Provider, src KeySource) (Endpoint, error) {
	env := r.Env
	if env == nil {
		env = os.LookupEnv
	}
	ep := Endpoint{Provider: p.Name, BaseURL: p.BaseURL, APIKey: p.APIKey}
	where := func(key string) string { return fmt.Sprintf("%s: provider.%s.%s", r.File.Path, p.Name, key) }
	switch {
	case len(src.Command) > 0:
		timeout := r.Timeout
		if timeout <= 0 {
			timeout = KeyCommandTimeout
		}
		key, err := RunKeyCommand(ctx, src.Command, timeout)
		if err != nil {
			return ep, fmt.Errorf("%s: %w", where("api_key_cmd"), err)
		}
		ep.APIKey = key
	case src.Env != "" && src.Env == p.APIKeyEnv:
		key, ok := env(p.APIKeyEnv)
		if !ok || strings.TrimSpace(key) == "" {
			return ep, fmt.Errorf("%s: the environment variable %s is not set; export it or change api_key_env", where("api_key_env"), p.APIKeyEnv)
		}
		ep.APIKey = strings.TrimSpace(key)
	case src.Env != "":
		key, _ := env(src.Env)
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

// expand replaces each ${VAR} in a header value with the variable's value; one that is not
// set is an error naming it.
func expand(value string, env Lookup) (string, error) {
	names, err := config.Variables(value)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, name := range names { // in the order they are written: each is the next ${
		v, ok := env(name)
		if !ok {
			return "", fmt.Errorf("the environment variable %s is not set", name)
		}
		before, after, _ := strings.Cut(value, "${"+name+"}")
		b.WriteString(before)
		b.WriteString(v)
		value = after
	}
	b.WriteString(value)
	return b.String(), nil
}

// keyVariables names the environment variables the file's providers take credentials from
// (api_key_env, and ${VAR} in header values): no tool gets them.
func keyVariables(f *config.File) []string {
	var names []string
	for _, p := range f.Providers {
		if p.APIKeyEnv != "" {
			names = append(names, p.APIKeyEnv)
		}
		for _, v := range p.Headers {
			vars, _ := config.Variables(v) // checked when the file was read
			names = append(names, vars...)
		}
	}
	return names
}
