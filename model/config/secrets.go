package config

import (
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/phasechat/phasechat/internal/secret"
)

// expand replaces each ${VAR} in s with lookup(VAR). A variable that is not set is an error
// naming it; a "$" not followed by "{NAME}" is kept as it is.
func expand(s string, lookup func(string) (string, bool)) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("%q opens ${ without a closing }", s)
		}
		name := s[i+2 : i+j]
		if !validEnvName().MatchString(name) {
			return "", fmt.Errorf("${%s} is not an environment variable name", name)
		}
		v, ok := lookup(name)
		if !ok {
			return "", fmt.Errorf("the environment variable %s is not set", name)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

// credentialHeaders are header names whose values are credentials.
var credentialHeaders = []string{"authorization", "api-key", "x-api-key", "x-goog-api-key", "proxy-authorization", "cookie"}

// literalSecrets lists the keys of f that hold a credential written into the file itself.
func literalSecrets(f *File) []string {
	var keys []string
	for _, name := range f.Order {
		p := f.Providers[name]
		if p == nil {
			continue
		}
		if p.APIKey != "" {
			keys = append(keys, "provider."+name+".api_key")
		}
		for h, v := range p.Headers {
			if containsString(credentialHeaders, strings.ToLower(h)) && !strings.Contains(v, "${") {
				keys = append(keys, "provider."+name+".headers."+h)
			}
		}
	}
	return keys
}

// permissionWarning warns when a file that holds a literal credential can be read by others.
func permissionWarning(path string, f *File) string {
	keys := literalSecrets(f)
	if len(keys) == 0 {
		return ""
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&0o077 == 0 {
		return ""
	}
	return fmt.Sprintf("%s holds a key (%s) and can be read by other users (mode %s): run chmod 600 %s, or move the key to api_key_env or api_key_cmd",
		path, strings.Join(keys, ", "), info.Mode().Perm()&fs.ModePerm, path)
}

// AddSecrets adds to set every credential the file configures, whether or not its provider is
// used this run, so that none leaves the process before its provider is first used: literal
// keys, the values of the api_key_env variables and of the default key variables, credential
// headers (secret.CredentialHeader, or a value read from a variable whose name says it holds
// one; ${VAR} expanded, a variable that is not set adding nothing) and the credentials of
// base URLs. A key command is not run here: its output is added when it runs. The [mcp]
// tables' credentials are added by the MCP manager when it starts them (mcp.Start).
func (f *File) AddSecrets(set *secret.Set, env Lookup) {
	if f == nil || set == nil {
		return
	}
	if env == nil {
		env = os.LookupEnv
	}
	for _, name := range []string{DefaultKeyEnv, AnthropicKeyEnv} {
		if v, ok := env(name); ok {
			set.Add(strings.TrimSpace(v))
		}
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
			if !CredentialHeaderValue(h, v) {
				continue
			}
			if val, err := expand(v, env); err == nil {
				set.AddHeader(val)
			}
		}
	}
}

// CredentialHeaderValue reports whether the configured header name: value carries a
// credential: the name says so (secret.CredentialHeader), or the value reads a variable whose
// name does (${GITHUB_TOKEN}).
func CredentialHeaderValue(name, value string) bool {
	if secret.CredentialHeader(name) {
		return true
	}
	for _, m := range headerVars.FindAllStringSubmatch(value, -1) {
		if secret.CredentialParam(m[1]) {
			return true
		}
	}
	return false
}

var headerVars = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
