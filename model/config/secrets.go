package config

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
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
