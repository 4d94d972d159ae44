package config

import (
	"fmt"
	"slices"
	"strings"
)

// Choice is a provider and a model of it.
type Choice struct {
	Provider string
	Model    string // "" when neither the command line nor the file names one
	// Unmatched is the PROVIDER of a model named "PROVIDER/MODEL" when the file defines no
	// such provider (so the whole name is a model of Provider); "" otherwise.
	Unmatched string
}

// String is "provider/model".
func (c Choice) String() string { return c.Provider + "/" + c.Model }

// Choose picks the session's provider and model from the command line's --provider and
// --model (or -m) values, "" when not given; the flags win over the file. model may be
// "PROVIDER/MODEL" when PROVIDER is one of the file's providers (otherwise it is a model name,
// which may hold slashes itself, like "moonshotai/kimi-k2"). With no provider named, the
// file's default is used. The model is then, in order: the one named, Default's "/MODEL"
// when Default names the chosen provider, the provider's default_model, its first model.
func (f *File) Choose(provider, model string) (Choice, error) {
	unmatched := ""
	if prefix, rest, ok := strings.Cut(model, "/"); ok && f.Providers[prefix] != nil {
		if provider != "" && provider != prefix {
			return Choice{}, fmt.Errorf("--provider %s and --model %s name different providers", provider, model)
		}
		provider, model = prefix, rest
	} else if ok && provider == "" {
		unmatched = prefix
	}
	if provider == "" {
		p := f.DefaultProvider()
		if p == nil {
			return Choice{}, fmt.Errorf("%s defines no provider; add a [provider.NAME] table", f.Path)
		}
		provider = p.Name
	}
	p, err := f.Named(provider)
	if err != nil {
		return Choice{}, err
	}
	if model == "" {
		if dp := f.DefaultProvider(); dp != nil && dp.Name == provider {
			model = f.DefaultModel()
		}
	}
	if model == "" {
		model = p.DefaultModel
	}
	if model == "" && len(p.Models) > 0 {
		model = p.Models[0]
	}
	return Choice{Provider: provider, Model: model, Unmatched: unmatched}, nil
}

// Closest is the file's provider names nearest to name (by edit distance, at most half its
// length away), nearest first and at most three.
func (f *File) Closest(name string) []string {
	type near struct {
		name string
		d    int
	}
	var found []near
	for _, p := range f.Order {
		if d := editDistance(strings.ToLower(name), strings.ToLower(p)); d <= max(1, len([]rune(name))/2) {
			found = append(found, near{p, d})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	var out []string
	for _, n := range found[:min(3, len(found))] {
		out = append(out, n.name)
	}
	return out
}

// ListedModels are the models the file lists for a provider: default_model first when it is
// not among models, then models in file order. Empty means the server must be asked.
func (p *Provider) ListedModels() []string {
	var out []string
	if p.DefaultModel != "" && !containsString(p.Models, p.DefaultModel) {
		out = append(out, p.DefaultModel)
	}
	return append(out, p.Models...)
}

// Named is the provider of that name; the error, when the file defines none, lists those it
// does.
func (f *File) Named(name string) (*Provider, error) {
	if p := f.Providers[name]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("no provider named %q in %s%s", name, f.Path, known(f.Order))
}
