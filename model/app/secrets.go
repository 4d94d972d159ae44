package app

import (
	"os"
	"strings"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/model/config"
)

// addFileSecrets adds to set every credential the config file holds or names, whether or not
// its provider is used this run, so that none leaves the process before its provider is first
// used: literal keys, the values of the api_key_env variables and of the default key
// variables, credential headers (credentialHeader; ${VAR} expanded, a variable that is not set
// adding nothing) and the credentials of base URLs. A key command is not run here: its output
// is added when it runs (Endpoint.AddSecrets). The [mcp] tables' credentials are added by the
// MCP manager when it starts them (mcp.Start).
func addFileSecrets(set *secret.Set, f *config.File, env Lookup) {
	if env == nil {
		env = os.LookupEnv
	}
	for _, name := range []string{DefaultKeyEnv, AnthropicKeyEnv} {
		if v, ok := env(name); ok {
			set.Add(strings.TrimSpace(v))
		}
	}
	if f == nil {
		return
	}
	for _, name := range f.Order {
		p := f.Providers[name]
		if p == nil {
			continue
		}
		set.Add(p.APIKey)
		if p.APIKeyEnv != "" {
			if v, ok := env(p.APIKeyEnv); ok {
				set.Add(strings.TrimSpace(v))
			}
		}
		set.AddURL(p.BaseURL)
		for h, v := range p.Headers {
			if !credentialHeader(h, v) {
				continue
			}
			if val, err := expand(v, env); err == nil {
				set.AddHeader(val)
			}
		}
	}
}

// credentialHeader reports whether the configured header name: value carries a credential:
// the name says so (secret.CredentialHeader), or the value reads a variable whose name does
// (${GITHUB_TOKEN}). X-Title: phasechat does not: its value is a word that stays readable.
func credentialHeader(name, value string) bool {
	if secret.CredentialHeader(name) {
		return true
	}
	vars, _ := config.Variables(value)
	for _, v := range vars {
		if secret.CredentialParam(v) {
			return true
		}
	}
	return false
}

// AddSecrets adds to set the endpoint's credentials, which must never leave the process: the
// key (a key command's output, as soon as it ran), the base URL's credentials and the values
// of its credential headers (credentialHeader reads each as configured).
func (e Endpoint) AddSecrets(set *secret.Set, configured map[string]string) {
	set.Add(e.APIKey)
	set.AddURL(e.BaseURL)
	for name, v := range e.Headers {
		if credentialHeader(name, configured[name]) {
			set.AddHeader(v)
		}
	}
}
